package org.meterstore.cold.scan;

/**
 * A vector of {@code int}s: {@code DATE} as days since 1970-01-01. Null rows have an unspecified
 * value.
 */
public final class IntVector implements ColumnVector {
  private final int[] values;
  private final boolean[] nulls;

  /**
   * @param values the values, at least as many as the batch has rows
   * @param nulls the null flags, or null when no row is null
   */
  public IntVector(int[] values, boolean[] nulls) {
    this.values = values;
    this.nulls = nulls;
  }

  /** The values, by row. */
  public int[] values() {
    return values;
  }

  /** The null flags by row, or null when no row is null. */
  public boolean[] nulls() {
    return nulls;
  }

  @Override
  public boolean isNull(int row) {
    return nulls != null && nulls[row];
  }

  @Override
  public boolean mayHaveNulls() {
    return nulls != null;
  }
}
