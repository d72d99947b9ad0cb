package org.meterstore.cold.scan;

import java.util.List;

/**
 * Consecutive rows of one data file, column by column: {@link #column(int)} is the vector of the
 * {@code i}-th requested column. A batch never spans two row groups, so its text vectors share one
 * dictionary per column. Not thread-safe.
 *
 * @param size the number of rows, at least one
 * @param columns one vector per requested column, in request order
 */
public record ColumnBatch(int size, List<ColumnVector> columns) {

  /** Checks the size and copies the list. */
  public ColumnBatch {
    if (size < 1) {
      throw new IllegalArgumentException("Invalid size: " + size + " (at least 1)");
    }
    columns = List.copyOf(columns);
  }

  /** The vector of the {@code index}-th requested column. */
  public ColumnVector column(int index) {
    return columns.get(index);
  }
}
