package org.meterstore.query.internal.cold;

import java.util.ArrayList;
import java.util.List;
import org.meterstore.cold.snapshot.SnapshotView;

/**
 * What every unit of one scan shares: the snapshot, the columns, the predicates (bound) and the
 * batch size. Filters are made per unit run, since they cache per dictionary and are not
 * thread-safe.
 */
record UnitContext(ColdRequest request, ScanColumns columns, int batchRows) {

  SnapshotView snapshot() {
    return request.snapshot();
  }

  BatchFilter before() {
    return new BatchFilter(request.before(), columns);
  }

  BatchFilter after() {
    return new BatchFilter(request.after(), columns);
  }

  /** Both lists: for rows that take part in no resolution. */
  BatchFilter all() {
    List<ColdPred> both = new ArrayList<>(request.before());
    both.addAll(request.after());
    return new BatchFilter(both, columns);
  }

  static int[] identity(int[] sel, int n) {
    for (int i = 0; i < n; i++) {
      sel[i] = i;
    }
    return sel;
  }
}
