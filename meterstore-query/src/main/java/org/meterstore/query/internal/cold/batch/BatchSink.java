package org.meterstore.query.internal.cold.batch;

import org.meterstore.cold.scan.ColumnBatch;

/** Where a unit's qualifying rows go: an aggregate or Calcite's rows. */
public interface BatchSink {
  /** Consumes the rows {@code sel[0..n)} of {@code batch}, which is valid only during the call. */
  void accept(ColumnBatch batch, int[] sel, int n);
}
