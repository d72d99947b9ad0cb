package org.meterstore.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * An order-sensitive 64-bit digest of an answer's rows, cheap enough to fold every row of every
 * timed execution into it: two engines' answers to one question are the same rows in the same order
 * when their {@link Fingerprint}s are equal (up to a 2^-64 collision). Fields are folded as longs;
 * decimals at a fixed scale, so {@code 1.5} and {@code 1.500000} fold alike. Not thread-safe: one
 * per execution.
 */
final class RowDigest {
  private static final long NULL = 0x6E756C6C6E756C6CL;
  private long hash = 0x243F6A8885A308D3L;
  private long row = 1;
  private long rows;

  /** The rows and digest of one answer. */
  record Fingerprint(long rows, long digest) {
    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "%,d rows #%016x", rows, digest);
    }
  }

  /** Folds one field of the current row. */
  RowDigest add(long value) {
    row = Dataset.mix(row, value, 0x9E3779B9L);
    return this;
  }

  /** Folds a text field (null allowed). */
  RowDigest add(String value) {
    return add(value == null ? NULL : value.hashCode());
  }

  /** Folds a decimal at {@code scale} (null allowed); an inexact rescale is refused. */
  RowDigest add(BigDecimal value, int scale) {
    if (value == null) {
      return add(NULL);
    }
    BigDecimal at =
        value.scale() == scale ? value : value.setScale(scale, RoundingMode.UNNECESSARY);
    return add(at.hashCode());
  }

  /** Folds an instant given as epoch milliseconds, or null. */
  RowDigest addMillis(java.util.Date value) {
    return add(value == null ? NULL : value.getTime());
  }

  /** Ends the current row: folds it into the answer's digest in order. */
  void endRow() {
    hash = Dataset.mix(hash, row, rows);
    row = 1;
    rows++;
  }

  /** The answer so far. */
  Fingerprint fingerprint() {
    return new Fingerprint(rows, hash);
  }
}
