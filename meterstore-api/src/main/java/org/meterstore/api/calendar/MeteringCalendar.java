package org.meterstore.api.calendar;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.function.Supplier;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;

/**
 * The German metering calendar: balancing days, months and years in Europe/Berlin, and how many
 * intervals of a resolution fit into them (DESIGN § 3.5).
 *
 * <p>A calendar day starts at local midnight; a <b>gas day</b> (Gastag) starts at 06:00 local time
 * and is named after the date on which it starts. {@link Commodity#GAS} is balanced on gas days,
 * every other commodity on calendar days. Because the clocks change at 02:00/03:00 on a Sunday,
 * i.e. before 06:00, the short (23 h) and long (25 h) gas days are the ones named after the
 * Saturday. Balancing months and years start with their first balancing day (gas: 06:00 local on
 * the 1st, or on 1 January).
 *
 * <p>The zone is fixed at {@link #ZONE} and cannot be configured. Instants are UTC points on the
 * time line; dates and months are Europe/Berlin balancing dates. Every range is half-open: a start
 * is inclusive, an end exclusive and equal to the next start. No argument may be null unless its
 * method says so; a null, or a date or instant so far out that the next day cannot be represented,
 * throws {@link MeterStoreException} of kind {@code INVALID_INPUT}. The class is stateless and
 * thread-safe.
 */
public final class MeteringCalendar {
  /** Europe/Berlin, the zone of every balancing day. */
  public static final ZoneId ZONE = ZoneId.of("Europe/Berlin");

  private static final LocalTime GAS_DAY_START = LocalTime.of(6, 0);
  private static final String RANGE_RULE = "outside the supported date range";

  /**
   * The span in which every Europe/Berlin offset from UTC is whole hours (Berlin left local mean
   * time in 1893) and java.time represents every instant: there a grid that divides an hour is the
   * UTC multiples of its step (see {@link Resolution#dividesAnHour}).
   */
  private static final long WHOLE_HOUR_OFFSETS_FROM =
      Instant.parse("1900-01-01T00:00:00Z").getEpochSecond();

  private static final long WHOLE_HOUR_OFFSETS_TO =
      Instant.parse("9000-01-01T00:00:00Z").getEpochSecond();

  private MeteringCalendar() {}

  /** The Europe/Berlin calendar date on which {@code instant} falls. */
  public static LocalDate localDay(Instant instant) {
    required("instant", instant);
    return guarded("instant", instant, () -> LocalDate.ofInstant(instant, ZONE));
  }

  /**
   * The gas day {@code instant} belongs to: gas day {@code D} is {@code [D 06:00, D+1 06:00)}
   * Europe/Berlin local time. So 05:59 local belongs to the previous date's gas day and 06:00 to
   * the current date's.
   */
  public static LocalDate gasDay(Instant instant) {
    required("instant", instant);
    return guarded(
        "instant",
        instant,
        () -> {
          LocalDateTime local = LocalDateTime.ofInstant(instant, ZONE);
          LocalDate date = local.toLocalDate();
          return local.toLocalTime().isBefore(GAS_DAY_START) ? date.minusDays(1) : date;
        });
  }

  /** The balancing day {@code instant} belongs to: its gas day for GAS, else its local day. */
  public static LocalDate balancingDay(Instant instant, Commodity commodity) {
    required("commodity", commodity);
    return commodity.usesGasDay() ? gasDay(instant) : localDay(instant);
  }

  /** The month of {@link #balancingDay(Instant, Commodity)}. */
  public static YearMonth balancingMonth(Instant instant, Commodity commodity) {
    return YearMonth.from(balancingDay(instant, commodity));
  }

  /**
   * The first instant (inclusive) of balancing day {@code day}: local midnight, or 06:00 local for
   * GAS.
   */
  public static Instant dayStart(LocalDate day, Commodity commodity) {
    required("day", day);
    required("commodity", commodity);
    LocalTime start = commodity.usesGasDay() ? GAS_DAY_START : LocalTime.MIDNIGHT;
    // atStartOfDay/atZone move a start that falls into a clock gap forward to the first valid
    // instant; Berlin has had none at midnight or 06:00 since 1893, but the rule stays total.
    return guarded("day", day, () -> day.atTime(start).atZone(ZONE).toInstant());
  }

  /** The end (exclusive) of balancing day {@code day}, which is the start of the next day. */
  public static Instant dayEnd(LocalDate day, Commodity commodity) {
    required("day", day);
    return dayStart(guarded("day", day, () -> day.plusDays(1)), commodity);
  }

  /** The length of balancing day {@code day}: 24 hours, or 23/25 hours on the DST days. */
  public static Duration dayLength(LocalDate day, Commodity commodity) {
    return Duration.between(dayStart(day, commodity), dayEnd(day, commodity));
  }

  /** The first instant (inclusive) of balancing month {@code month}: its first day's start. */
  public static Instant monthStart(YearMonth month, Commodity commodity) {
    required("month", month);
    required("commodity", commodity);
    int i = (month.getYear() - MonthStarts.FIRST_YEAR) * 12 + month.getMonthValue() - 1;
    if (i >= 0 && i < MonthStarts.MONTHS) {
      return MonthStarts.TABLE[commodity.usesGasDay() ? 1 : 0][i];
    }
    return dayStart(month.atDay(1), commodity);
  }

  /**
   * The month starts of 1970 to 2199, computed once: every reading's version scope is checked
   * against its month's bounds, and the zone arithmetic of a month start costs more than the rest
   * of a reading's checks. Read-only after class initialisation.
   */
  private static final class MonthStarts {
    static final int FIRST_YEAR = 1970;
    static final int MONTHS = (2200 - FIRST_YEAR) * 12;
    // [0] midnight starts, [1] gas-day starts
    static final Instant[][] TABLE = new Instant[2][MONTHS];

    static {
      for (int i = 0; i < MONTHS; i++) {
        LocalDate first = LocalDate.of(FIRST_YEAR + i / 12, i % 12 + 1, 1);
        TABLE[0][i] = dayStart(first, Commodity.STROM);
        TABLE[1][i] = dayStart(first, Commodity.GAS);
      }
    }
  }

  /** The end (exclusive) of balancing month {@code month}, which is the next month's start. */
  public static Instant monthEnd(YearMonth month, Commodity commodity) {
    required("month", month);
    return monthStart(guarded("month", month, () -> month.plusMonths(1)), commodity);
  }

  /**
   * The exact number of intervals of {@code resolution} in balancing day {@code day}: the day's
   * length divided by the resolution for a sub-daily resolution (on an ordinary day 96 for {@code
   * PT15M}, 92 on the short and 100 on the long DST day), 1 for {@link Resolution#P1D}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for {@code P1M} and {@code P1Y}, which have
   *     no fixed interval count per day, and for a sub-daily resolution that does not divide this
   *     day's length (on a 23 h or 25 h day only resolutions that divide an hour do)
   */
  public static long expectedIntervals(LocalDate day, Resolution resolution, Commodity commodity) {
    required("resolution", resolution);
    Duration length = dayLength(day, commodity);
    if (resolution.isCalendar()) {
      throw MeterStoreException.invalid(
          "resolution", resolution, "no fixed interval count per day");
    }
    if (!resolution.isSubDaily()) {
      return 1;
    }
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    if (length.getSeconds() % step != 0) {
      throw MeterStoreException.invalid(
          "resolution",
          resolution,
          "does not divide balancing day " + day + " of " + commodity + ", which lasts " + length);
    }
    return length.getSeconds() / step;
  }

  /**
   * Whether {@code [from, to)} is one interval of {@code resolution} on the grid of the balancing
   * calendar of {@code commodity}.
   *
   * <ul>
   *   <li>sub-daily: {@code to - from} equals the resolution, {@code from} lies a whole number of
   *       resolutions after the start of its balancing day, and {@code to} is not after that day's
   *       end. Berlin's offsets are whole hours, so for resolutions dividing an hour this is the
   *       UTC grid; {@code PT2H} … {@code PT12H} count from local midnight (gas: 06:00). On a DST
   *       day such a resolution does not fill the day, and the last, incomplete slot is refused.
   *   <li>{@code P1D}: {@code from} is a balancing day's start and {@code to} its end.
   *   <li>{@code P1M}: {@code from} is a balancing month's start and {@code to} its end.
   *   <li>{@code P1Y}: {@code from} is a balancing year's start (1 January, gas: 06:00 local) and
   *       {@code to} the next year's start.
   * </ul>
   *
   * @param from the interval start (inclusive), not null
   * @param to the interval end (exclusive); null for a point reading, in which case only {@code
   *     from} is checked against the grid
   * @return false also when {@code to} is not after {@code from}
   */
  public static boolean isAligned(
      Instant from, Instant to, Resolution resolution, Commodity commodity) {
    required("from", from);
    required("resolution", resolution);
    long seconds = from.getEpochSecond();
    long step = resolution.hourDivisorSeconds();
    if (step > 0 && seconds >= WHOLE_HOUR_OFFSETS_FROM && seconds < WHOLE_HOUR_OFFSETS_TO) {
      // on the UTC multiples of the step, and never across a day's start: no zone arithmetic
      required("commodity", commodity);
      boolean onGrid = from.getNano() == 0 && Math.floorMod(seconds, step) == 0;
      return onGrid && (to == null || (to.getEpochSecond() == seconds + step && to.getNano() == 0));
    }
    LocalDate day = balancingDay(from, commodity);
    if (resolution.isSubDaily()) {
      return isOnSubDailyGrid(from, to, day, resolution, commodity);
    }
    LocalDate first;
    Supplier<LocalDate> next;
    if (resolution.equals(Resolution.P1D)) {
      first = day;
      next = () -> first.plusDays(1);
    } else if (resolution.equals(Resolution.P1M)) {
      first = day.withDayOfMonth(1);
      next = () -> first.plusMonths(1);
    } else {
      first = day.withDayOfYear(1);
      next = () -> first.plusYears(1);
    }
    return from.equals(dayStart(first, commodity))
        && (to == null || to.equals(dayStart(guarded("from", from, next), commodity)));
  }

  private static boolean isOnSubDailyGrid(
      Instant from, Instant to, LocalDate day, Resolution resolution, Commodity commodity) {
    Duration step = resolution.fixedLength().orElseThrow();
    Duration offset = Duration.between(dayStart(day, commodity), from);
    boolean onGrid = offset.getNano() == 0 && offset.getSeconds() % step.getSeconds() == 0;
    if (to == null || !onGrid) {
      return onGrid;
    }
    return to.equals(from.plus(step)) && !to.isAfter(dayEnd(day, commodity));
  }

  private static void required(String field, Object value) {
    if (value == null) {
      throw MeterStoreException.invalid(field, null, "required");
    }
  }

  /** Runs {@code computation}, turning java.time's range errors into INVALID_INPUT. */
  private static <T> T guarded(String field, Object value, Supplier<T> computation) {
    try {
      return computation.get();
    } catch (DateTimeException | ArithmeticException e) {
      throw MeterStoreException.invalid(field, value, RANGE_RULE);
    }
  }
}
