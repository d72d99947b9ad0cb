package org.meterstore.cold.scan;

import java.math.BigDecimal;

/**
 * A vector of {@code long}s: {@code TIMESTAMPTZ} as epoch microseconds (UTC), {@code DECIMAL_18_6}
 * and {@code DECIMAL_20_0} as unscaled values at the column's scale. A {@code DECIMAL_20_0} value
 * that does not fit a {@code long} is held exactly in {@link #overflow()} at its row (its {@link
 * #values()} entry is then meaningless); all other rows of {@link #overflow()} are null. Null rows
 * have an unspecified value.
 */
public final class LongVector implements ColumnVector {
  private final long[] values;
  private final boolean[] nulls;
  private final BigDecimal[] overflow;

  /**
   * @param values the values, at least as many as the batch has rows
   * @param nulls the null flags, or null when no row is null
   * @param overflow exact decimal values that do not fit a long, or null when none
   */
  public LongVector(long[] values, boolean[] nulls, BigDecimal[] overflow) {
    this.values = values;
    this.nulls = nulls;
    this.overflow = overflow;
  }

  /** The values, by row. */
  public long[] values() {
    return values;
  }

  /** The null flags by row, or null when no row is null. */
  public boolean[] nulls() {
    return nulls;
  }

  /** Exact values that do not fit a long, by row, or null when there are none. */
  public BigDecimal[] overflow() {
    return overflow;
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
