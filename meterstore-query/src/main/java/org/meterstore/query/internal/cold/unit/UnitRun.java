package org.meterstore.query.internal.cold.unit;

import org.meterstore.query.internal.cold.batch.BatchSink;

/**
 * One unit of a cold scan being read, a step at a time, so that a worker can stop between batches
 * (when Calcite reads rows more slowly than the files are decoded) without holding a pool thread.
 * Not thread-safe: one thread at a time, steps in order.
 */
public interface UnitRun extends AutoCloseable {
  /** Reads about one batch and hands its qualifying rows to {@code sink}; false once done. */
  boolean step(BatchSink sink);

  /** The rows read from storage so far (before any predicate). */
  long rowsRead();

  /**
   * The rows decoded from Parquet pages so far, at least {@link #rowsRead()} on the columnar path;
   * the records path does not know (Iceberg's reader decodes whole row groups) and says 0.
   */
  default long rowsDecoded() {
    return 0;
  }

  @Override
  void close();
}
