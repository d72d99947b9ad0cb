package org.meterstore.api.privacy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.util.Optional;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;

/**
 * When the mapping of a subject to its pseudonymous reference for one collection year comes due for
 * erasure. Collection years are balancing years in Europe/Berlin (gas readings before 06:00 on 1
 * January belong to the previous year). A mapping is erased by the first sweep at or after its due
 * instant; neither rule ever erases early.
 */
public sealed interface Retention {

  /**
   * § 60 Abs. 6 MsbG: due on the last day of the {@code years}-th calendar year after the year of
   * collection — a value collected on 2 January 2025 comes due on 31 December 2028 (local date), so
   * a sweep on 30 December 2028 keeps it and one on 31 December 2028 erases it. Not {@code now − n
   * years}, which would erase a year early.
   *
   * @param years at least 1
   */
  static Retention calendarYears(int years) {
    return new CalendarYears(years);
  }

  /**
   * "No longer necessary": due once {@code period} has passed since the end of the collection year
   * (local midnight starting 1 January of the following year). Because the registry records the
   * year, not the day, this is the earliest instant that is late enough for every reading of that
   * year.
   *
   * @param period positive
   */
  static Retention rolling(Duration period) {
    return new Rolling(period);
  }

  /**
   * The newest collection year whose mappings are due at {@code now}; every older year is due too.
   * Empty when none is (only before the first due date of the calendar).
   */
  Optional<Year> dueThrough(Instant now);

  /**
   * The instant from which mappings of {@code collectionYear} are due.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for a year outside 1970–9000
   */
  Instant dueAt(Year collectionYear);

  /** § 60 Abs. 6 MsbG counting; see {@link Retention#calendarYears(int)}. */
  record CalendarYears(int years) implements Retention {
    /** Checks the count. */
    public CalendarYears {
      if (years < 1 || years > 100) {
        throw MeterStoreException.invalid("retention years", years, "1 to 100");
      }
    }

    @Override
    public Optional<Year> dueThrough(Instant now) {
      LocalDate today = MeteringCalendar.localDay(now);
      int newest =
          today.getYear()
              - years
              - (today.getMonthValue() == 12 && today.getDayOfMonth() == 31 ? 0 : 1);
      return newest < 1970 ? Optional.empty() : Optional.of(Year.of(newest));
    }

    @Override
    public Instant dueAt(Year collectionYear) {
      requireYear(collectionYear);
      LocalDate lastDay = LocalDate.of(collectionYear.getValue() + years, 12, 31);
      return lastDay.atStartOfDay(MeteringCalendar.ZONE).toInstant();
    }
  }

  /** A period after the end of the collection year; see {@link Retention#rolling(Duration)}. */
  record Rolling(Duration period) implements Retention {
    /** Checks the period. */
    public Rolling {
      if (period == null || period.isNegative() || period.isZero()) {
        throw MeterStoreException.invalid("retention period", period, "a positive duration");
      }
    }

    @Override
    public Optional<Year> dueThrough(Instant now) {
      int year = MeteringCalendar.localDay(now.minus(period)).getYear() - 1;
      while (year >= 1970 && dueAt(Year.of(year)).isAfter(now)) {
        year--;
      }
      return year < 1970 ? Optional.empty() : Optional.of(Year.of(year));
    }

    @Override
    public Instant dueAt(Year collectionYear) {
      requireYear(collectionYear);
      return LocalDate.of(collectionYear.getValue() + 1, 1, 1)
          .atStartOfDay(MeteringCalendar.ZONE)
          .toInstant()
          .plus(period);
    }
  }

  private static void requireYear(Year year) {
    if (year == null || year.getValue() < 1970 || year.getValue() > 9000) {
      throw MeterStoreException.invalid("collection year", year, "1970 to 9000");
    }
  }
}
