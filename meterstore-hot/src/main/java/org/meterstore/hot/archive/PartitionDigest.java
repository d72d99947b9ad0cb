package org.meterstore.hot.archive;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The content digest of a hot partition: how many rows it holds and the exact sum of their values.
 *
 * @param rowCount rows, zero or more
 * @param valueSum the sum of {@code value}, scale 6 (zero for no rows)
 */
public record PartitionDigest(long rowCount, BigDecimal valueSum) {
  /** Checks the count and normalises the scale. */
  public PartitionDigest {
    if (rowCount < 0) {
      throw new IllegalArgumentException("Invalid rowCount: " + rowCount + " (zero or more)");
    }
    valueSum = Objects.requireNonNull(valueSum, "valueSum").setScale(6);
  }
}
