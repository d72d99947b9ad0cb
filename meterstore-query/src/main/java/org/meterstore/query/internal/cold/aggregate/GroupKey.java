package org.meterstore.query.internal.cold.aggregate;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextDictionary;
import org.meterstore.cold.scan.TextVector;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.KeyFunction;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.TimeUnit;

/**
 * One group key computed as a {@code long} per row: a text key as its dictionary id (strings are
 * made once per group, by {@link #value}), a timestamp key in epoch milliseconds (floored), a date
 * key in epoch days, an {@code EXTRACT} as its number, a decimal key unscaled (a value beyond a
 * long gets an id of its own). Calendar fields are computed once per distinct day, since rows come
 * sorted by time within a location. Not thread-safe.
 */
final class GroupKey {
  static final long NULL = 1;
  static final long BIG = 2;
  private static final long DAY_MS = 86_400_000L;
  private static final long HOUR_MS = 3_600_000L;

  private final int position;
  private final ColumnType type;
  private final KeyFunction function;
  private final TimeUnit unit;
  private final int scale;
  private final List<BigDecimal> bigs = new ArrayList<>();
  private long spanStart = Long.MAX_VALUE;
  private long spanEnd = Long.MIN_VALUE;
  private int[] ints;
  private long[] longs;
  private boolean[] nulls;
  private BigDecimal[] overflow;
  private long cachedValue;

  GroupKey(int position, ColumnType type, KeyFunction function, TimeUnit unit, int scale) {
    this.position = position;
    this.type = type;
    this.function = function;
    this.unit = unit;
    this.scale = scale;
  }

  int position() {
    return position;
  }

  boolean isText() {
    return type == ColumnType.TEXT;
  }

  /** Takes the arrays of {@code batch}'s key column, for {@link #encode}. */
  void bind(ColumnBatch batch) {
    ColumnVector v = batch.column(position);
    if (v instanceof TextVector t) {
      ints = t.ids();
      nulls = t.nulls();
    } else if (v instanceof IntVector i) {
      ints = i.values();
      nulls = i.nulls();
    } else {
      LongVector l = (LongVector) v;
      longs = l.values();
      nulls = l.nulls();
      overflow = l.overflow();
    }
  }

  /**
   * The key of {@code row} of the bound batch into {@code out[at]}; returns the flags ({@link
   * #NULL}, {@link #BIG}).
   */
  long encode(int row, long[] out, int at) {
    if (nulls != null && nulls[row]) {
      out[at] = 0;
      return NULL;
    }
    switch (type) {
      case TEXT:
        out[at] = ints[row];
        return 0;
      case DATE:
        out[at] = date(ints[row]);
        return 0;
      case TIMESTAMPTZ:
        out[at] = timestamp(Math.floorDiv(longs[row], 1000L));
        return 0;
      default:
        if (overflow != null && overflow[row] != null) {
          out[at] = bigs.size();
          bigs.add(overflow[row]);
          return BIG;
        }
        out[at] = longs[row];
        return 0;
    }
  }

  private long timestamp(long millis) {
    if (function == KeyFunction.PLAIN) {
      return millis;
    }
    if (unit == TimeUnit.HOUR) {
      return function == KeyFunction.FLOOR
          ? Math.floorDiv(millis, HOUR_MS) * HOUR_MS
          : Math.floorMod(millis, DAY_MS) / HOUR_MS;
    }
    long day = Math.floorDiv(millis, DAY_MS);
    long d = calendar(day);
    return function == KeyFunction.FLOOR ? d * DAY_MS : d;
  }

  private long date(int day) {
    if (function == KeyFunction.PLAIN) {
      return day;
    }
    if (unit == TimeUnit.HOUR) {
      return function == KeyFunction.FLOOR ? day : 0;
    }
    return calendar(day);
  }

  /**
   * FLOOR: the epoch day the unit starts on; EXTRACT: the field. Cached for the whole span of days
   * that share the answer (a day, a month or a year), so a sorted run computes it once.
   */
  private long calendar(long day) {
    if (day >= spanStart && day < spanEnd) {
      return cachedValue;
    }
    LocalDate d = LocalDate.ofEpochDay(day);
    LocalDate start =
        switch (unit) {
          case YEAR -> d.withDayOfYear(1);
          case MONTH -> d.withDayOfMonth(1);
          default -> d;
        };
    LocalDate end =
        switch (unit) {
          case YEAR -> start.plusYears(1);
          case MONTH -> start.plusMonths(1);
          default -> start.plusDays(1);
        };
    long v;
    if (function == KeyFunction.FLOOR) {
      v = start.toEpochDay();
    } else {
      v =
          switch (unit) {
            case YEAR -> d.getYear();
            case MONTH -> d.getMonthValue();
            default -> d.getDayOfMonth();
          };
    }
    spanStart = start.toEpochDay();
    spanEnd = end.toEpochDay();
    cachedValue = v;
    return v;
  }

  /** The internal value of an encoded key, strings through {@code dictionary}. */
  Object value(long encoded, long flags, TextDictionary dictionary) {
    if ((flags & NULL) != 0) {
      return null;
    }
    if ((flags & BIG) != 0) {
      return bigs.get((int) encoded);
    }
    switch (type) {
      case TEXT:
        return dictionary.value((int) encoded);
      case DATE:
        return function == KeyFunction.EXTRACT ? (Object) encoded : (Object) (int) encoded;
      case TIMESTAMPTZ:
        return encoded;
      default:
        return BigDecimal.valueOf(encoded, scale);
    }
  }

  /** Forgets the overflow keys of a flushed table. */
  void clear() {
    bigs.clear();
  }
}
