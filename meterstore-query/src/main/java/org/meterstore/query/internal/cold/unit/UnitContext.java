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
 *
 * @param snapshot the pinned snapshot
 * @param beforeResolution the predicates that hold before resolution (the request's {@code before})
 * @param afterResolution the predicates that hold after resolution (the request's {@code after})
 * @param columns the columns the scan reads
 * @param batchRows the rows of a batch read from a file
 */
public record UnitContext(
    SnapshotView snapshot,
    List<ColdPred> beforeResolution,
    List<ColdPred> afterResolution,
    ScanColumns columns,
    int batchRows) {

  /** Copies the lists. */
  public UnitContext {
    beforeResolution = List.copyOf(beforeResolution);
    afterResolution = List.copyOf(afterResolution);
  }

  BatchFilter before() {
    return new BatchFilter(beforeResolution, columns);
  }

  BatchFilter after() {
    return new BatchFilter(afterResolution, columns);
  }

  /** Both lists: for rows that take part in no resolution. */
  BatchFilter all() {
    List<ColdPred> both = new ArrayList<>(beforeResolution);
    both.addAll(afterResolution);
    return new BatchFilter(both, columns);
  }
}
