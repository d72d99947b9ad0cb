package org.meterstore.api.reading;

import java.math.BigInteger;
import java.time.Instant;
import java.util.regex.Pattern;
import org.meterstore.api.MeterStoreException;

/**
 * The correction version of a reading: a non-negative integer of at most 20 digits; the higher
 * version of the same reading wins.
 *
 * <p>Network operators assign versions of at least 14 digits (typically a {@code yyyyMMddHHmmss}
 * timestamp). A delivery without one gets {@link #arrival(Instant)}: the epoch milliseconds at
 * which MeterStore accepted it, at most 13 digits, so it always sorts below every operator version.
 *
 * @param value the version number, {@code 0 <= value < 10^20}
 */
public record Version(BigInteger value) implements Comparable<Version> {
  private static final Pattern OPERATOR_DIGITS = Pattern.compile("[0-9]{14,20}");

  /** The smallest operator version: {@code 10^13}, the first 14-digit number. */
  public static final BigInteger OPERATOR_MINIMUM = BigInteger.TEN.pow(13);

  private static final BigInteger LIMIT = BigInteger.TEN.pow(20);

  /** Checks the range. */
  public Version {
    if (value == null || value.signum() < 0 || value.compareTo(LIMIT) >= 0) {
      throw MeterStoreException.invalid("version", value, "an integer from 0 to 20 digits");
    }
  }

  /**
   * An operator-assigned version: 14 to 20 digits.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when the text is not such a number
   */
  public static Version operator(String text) {
    if (text == null || !OPERATOR_DIGITS.matcher(text.trim()).matches()) {
      throw MeterStoreException.invalid(
          "version", text, "an operator version has 14 to 20 digits and no sign");
    }
    return new Version(new BigInteger(text.trim()));
  }

  /** An operator-assigned version: 14 to 20 digits. */
  public static Version operator(long value) {
    return operator(Long.toString(value));
  }

  /**
   * The version of a delivery that carried none: {@code recordedAt} in epoch milliseconds.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} before 1970 or from the year 2286 on
   */
  public static Version arrival(Instant recordedAt) {
    if (recordedAt == null
        || recordedAt.isBefore(Instant.EPOCH)
        || recordedAt.toEpochMilli() >= OPERATOR_MINIMUM.longValueExact()) {
      throw MeterStoreException.invalid(
          "recorded_at", recordedAt, "an arrival version needs an instant from 1970 to 2286");
    }
    return new Version(BigInteger.valueOf(recordedAt.toEpochMilli()));
  }

  /** Whether a network operator assigned this version (14 digits or more). */
  public boolean isOperatorVersion() {
    return value.compareTo(OPERATOR_MINIMUM) >= 0;
  }

  @Override
  public int compareTo(Version other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value.toString();
  }
}
