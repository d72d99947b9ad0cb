package org.meterstore.cli.output;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAccessor;

/**
 * How single values are spelled in both formats: decimals in plain notation (never exponent form),
 * instants ISO-8601 in UTC, dates ISO-8601, null as {@code null}.
 */
final class Values {
  private Values() {}

  /** Whether JSON prints {@code value} as a number (integers and floating point; not decimals). */
  static boolean isJsonNumber(Object value) {
    return value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof Double
        || value instanceof Float;
  }

  /** Whether a table aligns {@code value} to the right. */
  static boolean isNumeric(Object value) {
    return value instanceof Number;
  }

  /** The text of a scalar value. */
  static String text(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof BigInteger i) {
      return i.toString();
    }
    if (value instanceof Timestamp t) {
      return t.toInstant().toString();
    }
    if (value instanceof java.sql.Date d) {
      return d.toLocalDate().toString();
    }
    if (value instanceof Instant i) {
      return i.toString();
    }
    if (value instanceof OffsetDateTime o) {
      return o.toInstant().toString();
    }
    if (value instanceof ZonedDateTime z) {
      return z.toInstant().toString();
    }
    if (value instanceof TemporalAccessor || value instanceof Enum<?>) {
      return value.toString();
    }
    return String.valueOf(value);
  }
}
