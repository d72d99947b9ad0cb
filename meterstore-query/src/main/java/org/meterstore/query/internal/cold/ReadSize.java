package org.meterstore.query.internal.cold;

import java.util.List;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.meterstore.query.internal.cold.unit.ScanUnit;

/**
 * Decides whether a cold read is small enough to run on the querying thread instead of the shared
 * pool: a read of one location (an equality or {@code IN} on {@code malo_id}, which the files' sort
 * order and page index narrow to a few pages per file) or of a few megabytes in all. Such a read
 * would spend longer waiting behind other queries' scans in the pool's queue than reading; on the
 * caller's thread, concurrent small reads share the processors as their threads do.
 */
final class ReadSize {
  private static final String LOCATION = "malo_id";

  private ReadSize() {}

  /**
   * Whether {@code request}, planned as {@code units}, runs on the caller's thread, reads of at
   * most {@code inlineBytes} of files counting as small; with 0, none does.
   */
  static boolean small(ColdRequest request, List<ScanUnit> units, long inlineBytes) {
    if (inlineBytes == 0) {
      return false;
    }
    if (units.size() <= 1) {
      return true;
    }
    long bytes = 0;
    for (ScanUnit u : units) {
      bytes += u.weight();
    }
    return bytes <= inlineBytes || pinsLocation(request.filter());
  }

  /** Whether every row {@code filter} accepts has a {@code malo_id} from a literal list. */
  static boolean pinsLocation(Expression filter) {
    if (filter instanceof And and) {
      return pinsLocation(and.left()) || pinsLocation(and.right());
    }
    if (filter instanceof UnboundPredicate<?> p && LOCATION.equals(p.ref().name())) {
      return switch (p.op()) {
        case EQ, IN -> true;
        default -> false;
      };
    }
    return false;
  }
}
