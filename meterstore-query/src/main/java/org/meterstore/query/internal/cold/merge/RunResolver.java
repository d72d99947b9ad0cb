package org.meterstore.query.internal.cold.merge;

import java.math.BigDecimal;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.VersionOrder;
import org.meterstore.query.internal.cold.batch.ScanColumns;

/**
 * Picks the winners of one run of rows that share {@code malo_id} and {@code from}: among rows that
 * also share the rest of the merge key and {@code version_scope}, the one {@link VersionOrder}
 * ranks first survives. A run is a handful of rows (channels times versions), so rows are compared
 * pairwise; each group keeps at most one surviving row at any time.
 */
public final class RunResolver {
  private final ScanColumns columns;

  public RunResolver(ScanColumns columns) {
    this.columns = columns;
  }

  /** Marks in {@code dropped} the losers among the rows {@code [start, end)} of {@code buffer}. */
  public void resolve(RowBuffer buffer, int start, int end, boolean[] dropped) {
    for (int i = start + 1; i < end; i++) {
      for (int j = start; j < i; j++) {
        if (dropped[j] || !sameGroup(buffer, i, j)) {
          continue;
        }
        if (outranks(buffer, i, j)) {
          dropped[j] = true;
        } else {
          dropped[i] = true;
        }
        break;
      }
    }
  }

  private boolean sameGroup(RowBuffer b, int i, int j) {
    for (int c : columns.groupRest) {
      boolean ni = b.isNull(c, i);
      if (ni != b.isNull(c, j)) {
        return false;
      }
      if (ni) {
        continue;
      }
      ColumnType t = columns.types[c];
      if (t == ColumnType.TEXT || t == ColumnType.DATE) {
        if (b.getInt(c, i) != b.getInt(c, j)) {
          return false;
        }
      } else {
        BigDecimal bi = b.getBig(c, i);
        BigDecimal bj = b.getBig(c, j);
        if (bi == null && bj == null) {
          if (b.getLong(c, i) != b.getLong(c, j)) {
            return false;
          }
        } else if (bi == null || bj == null || bi.compareTo(bj) != 0) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether row {@code i} outranks row {@code j} by {@code (version, recorded_at)}. */
  public boolean outranks(RowBuffer b, int i, int j) {
    int v = columns.version;
    int r = columns.recordedAt;
    Long ri = b.getLong(r, i);
    Long rj = b.getLong(r, j);
    if (b.getBig(v, i) == null && b.getBig(v, j) == null) {
      return VersionOrder.outranks(b.getLong(v, i), ri, b.getLong(v, j), rj);
    }
    return VersionOrder.outranks(decimal(b, v, i), ri, decimal(b, v, j), rj);
  }

  /** An exact value of a long column for comparison (scale is irrelevant within one column). */
  private static BigDecimal decimal(RowBuffer b, int c, int row) {
    BigDecimal big = b.getBig(c, row);
    return big != null ? big : BigDecimal.valueOf(b.getLong(c, row));
  }
}
