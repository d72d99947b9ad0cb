package org.meterstore.cold.scan;

/**
 * One column of a {@link ColumnBatch}: a primitive vector of the batch's rows, row {@code i} at
 * index {@code i}. The arrays are the vector's own (not copied) and may be longer than the batch;
 * readers must not modify them. Not thread-safe; a vector belongs to the thread that reads its
 * batch.
 */
public sealed interface ColumnVector permits LongVector, IntVector, TextVector {

  /** Whether row {@code row} is SQL null. */
  boolean isNull(int row);

  /** Whether any row may be null; false guarantees {@link #isNull} is false for every row. */
  boolean mayHaveNulls();
}
