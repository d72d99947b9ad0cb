package org.meterstore.query.internal.cold.unit;

import java.util.ArrayList;
import java.util.List;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.BatchFilter;
import org.meterstore.query.internal.cold.filter.ColdPred;

/**
 * What every unit of one scan shares: the snapshot, the columns, the predicates (bound) and the
 * batch size. Filters are made per unit run, since they cache per dictionary and are not
 * thread-safe.
 */
public record UnitContext(ColdRequest request, ScanColumns columns, int batchRows) {

  public SnapshotView snapshot() {
    return request.snapshot();
  }

  public BatchFilter before() {
    return new BatchFilter(request.before(), columns);
  }

  public BatchFilter after() {
    return new BatchFilter(request.after(), columns);
  }

  /** Both lists: for rows that take part in no resolution. */
  public BatchFilter all() {
    List<ColdPred> both = new ArrayList<>(request.before());
    both.addAll(request.after());
    return new BatchFilter(both, columns);
  }

  public static int[] identity(int[] sel, int n) {
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }
}
