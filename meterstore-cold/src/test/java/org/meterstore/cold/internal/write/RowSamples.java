package org.meterstore.cold.internal.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;

/**
 * Seeded random rows of a table (in {@code columns()} order, API types) for comparing Parquet
 * writers: each value is null (nullable columns only), the previous row's object, an equal but
 * distinct copy of it, or a fresh value drawn with edge cases (non-ASCII and empty strings, extreme
 * and negative decimals, instants before 1970).
 */
final class RowSamples {
  private static final BigInteger VERSION_BOUND = BigInteger.TEN.pow(20);
  private static final String ALPHABET = "0123456789ABCxyz äöüß€😀-:.";
  private static final List<String> TEXTS =
      List.of("", "KWH", "M3", "MEASURED", "ä", "€", "😀", "Zähler 1 € 😀", "1-0:1.8.0", "a");
  private static final List<BigDecimal> VALUES =
      List.of(
          new BigDecimal("999999999999.999999"),
          new BigDecimal("-999999999999.999999"),
          BigDecimal.ZERO,
          new BigDecimal("0.000001"),
          new BigDecimal("-0.000001"),
          new BigDecimal("1.5"));
  private static final List<BigDecimal> VERSIONS =
      List.of(
          new BigDecimal(VERSION_BOUND.subtract(BigInteger.ONE)),
          new BigDecimal(VERSION_BOUND.subtract(BigInteger.ONE).negate()),
          BigDecimal.ZERO,
          BigDecimal.ONE,
          new BigDecimal(-1),
          BigDecimal.valueOf(Long.MAX_VALUE),
          BigDecimal.valueOf(Long.MIN_VALUE),
          BigDecimal.valueOf(1_767_225_600_000L));

  private RowSamples() {}

  /**
   * {@code count} rows of {@code table}; {@code longTextPercent} of fresh text values are long
   * random strings (many distinct ones overflow Parquet's dictionaries).
   */
  static List<Object[]> rows(TableDefinition table, Random random, int count, int longTextPercent) {
    List<ColumnSpec> columns = table.columns();
    List<Object[]> rows = new ArrayList<>(count);
    Object[] previous = new Object[columns.size()];
    for (int r = 0; r < count; r++) {
      Object[] row = new Object[columns.size()];
      for (int i = 0; i < row.length; i++) {
        ColumnSpec c = columns.get(i);
        double p = random.nextDouble();
        if (c.nullable() && p < 0.15) {
          row[i] = null;
        } else if (previous[i] != null && p < 0.5) {
          row[i] = previous[i];
        } else if (previous[i] != null && p < 0.65) {
          row[i] = copy(previous[i]);
        } else {
          row[i] = fresh(c, random, longTextPercent);
        }
      }
      rows.add(row);
      previous = row;
    }
    return rows;
  }

  private static Object copy(Object value) {
    if (value instanceof String s) {
      return new String(s.toCharArray());
    } else if (value instanceof BigDecimal d) {
      return new BigDecimal(d.unscaledValue(), d.scale());
    } else if (value instanceof Instant t) {
      return Instant.ofEpochSecond(t.getEpochSecond(), t.getNano());
    } else if (value instanceof LocalDate d) {
      return LocalDate.of(d.getYear(), d.getMonth(), d.getDayOfMonth());
    }
    throw new IllegalArgumentException("no copy of " + value);
  }

  private static Object fresh(ColumnSpec column, Random random, int longTextPercent) {
    switch (column.type()) {
      case TEXT:
        if (random.nextInt(100) < longTextPercent) {
          return string(random, 200 + random.nextInt(400));
        }
        return random.nextBoolean()
            ? TEXTS.get(random.nextInt(TEXTS.size()))
            : string(random, random.nextInt(14));
      case TIMESTAMPTZ:
        // 1900 to 2200, some exactly on a second, some with sub-microsecond digits.
        long seconds = -2_208_988_800L + (long) (random.nextDouble() * 9_467_280_000L);
        int nanos = random.nextBoolean() ? 0 : random.nextInt(1_000_000_000);
        return Instant.ofEpochSecond(seconds, nanos);
      case DATE:
        return LocalDate.ofEpochDay(-40_000 + random.nextInt(120_000));
      case DECIMAL_18_6:
        if (random.nextInt(4) == 0) {
          return VALUES.get(random.nextInt(VALUES.size()));
        }
        // Below 10^12 in magnitude at any scale up to the column's 6.
        int scale = random.nextInt(7);
        long unscaled = random.nextLong() % BigInteger.TEN.pow(12 + scale).longValueExact();
        return new BigDecimal(BigInteger.valueOf(unscaled), scale);
      case DECIMAL_20_0:
        if (random.nextInt(4) == 0) {
          return VERSIONS.get(random.nextInt(VERSIONS.size()));
        }
        BigInteger v = new BigInteger(67, random).mod(VERSION_BOUND);
        return new BigDecimal(random.nextInt(5) == 0 ? v.negate() : v);
      default:
        throw new IllegalArgumentException("no samples for " + column);
    }
  }

  private static String string(Random random, int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      int at = random.nextInt(ALPHABET.length());
      char c = ALPHABET.charAt(at);
      if (Character.isSurrogate(c)) {
        sb.append("😀");
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
