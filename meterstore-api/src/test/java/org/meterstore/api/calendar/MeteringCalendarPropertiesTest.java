package org.meterstore.api.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.Month;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;

/**
 * Properties of the calendar checked against a reference model that knows only the EU summer-time
 * rule (since 1996: from the last Sunday of March to the last Sunday of October, changing at 01:00
 * UTC) and the 06:00 start of the gas day, not java.time's zone rules.
 */
class MeteringCalendarPropertiesTest {
  private static final long SECONDS_PER_DAY = 86_400;
  private static final LocalDate FIRST_DAY = LocalDate.of(1996, 1, 1);
  private static final LocalDate LAST_DAY = LocalDate.of(2100, 12, 31);

  @Property
  void twelveBalancingMonthsSumToExactlyOneYear(
      @ForAll @IntRange(min = 1990, max = 2100) int year, @ForAll Commodity commodity) {
    Duration sum = Duration.ZERO;
    for (int month = 1; month <= 12; month++) {
      YearMonth yearMonth = YearMonth.of(year, month);
      sum =
          sum.plus(
              Duration.between(
                  MeteringCalendar.monthStart(yearMonth, commodity),
                  MeteringCalendar.monthEnd(yearMonth, commodity)));
    }

    int days = Year.isLeap(year) ? 366 : 365;
    assertThat(sum).isEqualTo(Duration.ofHours(24L * days));
  }

  @Property
  void dayLengthFollowsTheEuSummerTimeRule(
      @ForAll("days") LocalDate day, @ForAll Commodity commodity) {
    assertThat(MeteringCalendar.dayLength(day, commodity))
        .isEqualTo(Reference.dayLength(day, commodity));
  }

  @Property
  void expectedIntervalsTimesResolutionIsTheDayLength(
      @ForAll("days") LocalDate day,
      @ForAll("subDailyResolutions") Resolution resolution,
      @ForAll Commodity commodity) {
    Duration dayLength = MeteringCalendar.dayLength(day, commodity);
    Duration step = resolution.fixedLength().orElseThrow();

    if (dayLength.getSeconds() % step.getSeconds() == 0) {
      long intervals = MeteringCalendar.expectedIntervals(day, resolution, commodity);
      assertThat(step.multipliedBy(intervals)).isEqualTo(dayLength);
    } else {
      assertThat(3600 % step.getSeconds())
          .as("only non-divisors of an hour are refused")
          .isNotZero();
      assertThatThrownBy(() -> MeteringCalendar.expectedIntervals(day, resolution, commodity))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT));
    }
  }

  @Property
  void everyInstantLiesInsideItsBalancingDayAndMonth(
      @ForAll("instants") Instant instant, @ForAll Commodity commodity) {
    LocalDate day = MeteringCalendar.balancingDay(instant, commodity);
    YearMonth month = MeteringCalendar.balancingMonth(instant, commodity);

    assertThat(day).isEqualTo(Reference.balancingDay(instant, commodity));
    assertThat(MeteringCalendar.dayStart(day, commodity)).isBeforeOrEqualTo(instant);
    assertThat(MeteringCalendar.dayEnd(day, commodity)).isAfter(instant);
    assertThat(month).isEqualTo(YearMonth.from(day));
    assertThat(MeteringCalendar.monthStart(month, commodity)).isBeforeOrEqualTo(instant);
    assertThat(MeteringCalendar.monthEnd(month, commodity)).isAfter(instant);
  }

  @Property
  void resolutionsDividingAnHourAlignOnTheUtcGrid(
      @ForAll("instants") Instant from,
      @ForAll("hourDivisors") Resolution resolution,
      @ForAll Commodity commodity) {
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    boolean onUtcGrid = Math.floorMod(from.getEpochSecond(), step) == 0;
    Instant to = from.plusSeconds(step);

    assertThat(MeteringCalendar.isAligned(from, null, resolution, commodity)).isEqualTo(onUtcGrid);
    assertThat(MeteringCalendar.isAligned(from, to, resolution, commodity)).isEqualTo(onUtcGrid);
    assertThat(MeteringCalendar.isAligned(from, to.plusSeconds(step), resolution, commodity))
        .isFalse();
  }

  @Property
  void everyBalancingPeriodIsAlignedAndAnHourOffIsNot(
      @ForAll("instants") Instant instant, @ForAll Commodity commodity) {
    LocalDate day = MeteringCalendar.balancingDay(instant, commodity);
    Instant dayStart = MeteringCalendar.dayStart(day, commodity);
    Instant dayEnd = MeteringCalendar.dayEnd(day, commodity);
    YearMonth month = YearMonth.from(day);
    Instant monthStart = MeteringCalendar.monthStart(month, commodity);
    Instant monthEnd = MeteringCalendar.monthEnd(month, commodity);
    Duration hour = Duration.ofHours(1);

    assertThat(MeteringCalendar.isAligned(dayStart, dayEnd, Resolution.P1D, commodity)).isTrue();
    assertThat(MeteringCalendar.isAligned(dayStart.plus(hour), dayEnd, Resolution.P1D, commodity))
        .isFalse();
    assertThat(MeteringCalendar.isAligned(dayStart, dayEnd.plus(hour), Resolution.P1D, commodity))
        .isFalse();
    assertThat(MeteringCalendar.isAligned(monthStart, monthEnd, Resolution.P1M, commodity))
        .isTrue();
    assertThat(
            MeteringCalendar.isAligned(monthStart, monthEnd.minus(hour), Resolution.P1M, commodity))
        .isFalse();
  }

  @Provide
  Arbitrary<LocalDate> days() {
    Arbitrary<LocalDate> any =
        Arbitraries.longs()
            .between(FIRST_DAY.toEpochDay(), LAST_DAY.toEpochDay())
            .map(LocalDate::ofEpochDay);
    Arbitrary<LocalDate> aroundChanges =
        Combinators.combine(
                Arbitraries.integers().between(FIRST_DAY.getYear(), LAST_DAY.getYear()),
                Arbitraries.of(Month.MARCH, Month.OCTOBER),
                Arbitraries.integers().between(-1, 1))
            .as((year, month, shift) -> Reference.changeSunday(year, month).plusDays(shift));
    return Arbitraries.oneOf(any, aroundChanges);
  }

  @Provide
  Arbitrary<Instant> instants() {
    Arbitrary<Instant> any =
        Arbitraries.longs()
            .between(
                FIRST_DAY.atStartOfDay().toEpochSecond(ZoneOffset.UTC),
                LAST_DAY.atStartOfDay().toEpochSecond(ZoneOffset.UTC))
            .map(Instant::ofEpochSecond);
    // Instants within three hours of a local midnight or 06:00, where the days change.
    Arbitrary<Instant> nearBoundaries =
        Combinators.combine(
                days(),
                Arbitraries.of(LocalTime.MIDNIGHT, LocalTime.of(6, 0)),
                Arbitraries.integers().between(-3 * 3600, 3 * 3600))
            .as(
                (day, time, seconds) ->
                    day.atTime(time)
                        .atZone(MeteringCalendar.ZONE)
                        .toInstant()
                        .plusSeconds(seconds));
    return Arbitraries.oneOf(any, nearBoundaries);
  }

  @Provide
  Arbitrary<Resolution> subDailyResolutions() {
    return Arbitraries.of(divisorsBelow(SECONDS_PER_DAY));
  }

  @Provide
  Arbitrary<Resolution> hourDivisors() {
    return Arbitraries.of(
        divisorsBelow(SECONDS_PER_DAY).stream()
            .filter(r -> 3600 % r.fixedLength().orElseThrow().getSeconds() == 0)
            .collect(Collectors.toList()));
  }

  private static List<Resolution> divisorsBelow(long total) {
    return LongStream.range(1, total)
        .filter(seconds -> total % seconds == 0)
        .mapToObj(seconds -> Resolution.parse("PT" + seconds + "S"))
        .collect(Collectors.toList());
  }

  /** The EU rule and the gas day, stated without java.time's zone rules. */
  static final class Reference {
    private Reference() {}

    static LocalDate changeSunday(int year, Month month) {
      return LocalDate.of(year, month, 1).with(TemporalAdjusters.lastInMonth(DayOfWeek.SUNDAY));
    }

    /** The UTC offset in hours: +2 from 01:00 UTC on the March Sunday to 01:00 UTC in October. */
    static int offsetHours(Instant instant) {
      int year = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC).getYear();
      Instant summerFrom = changeSunday(year, Month.MARCH).atTime(1, 0).toInstant(ZoneOffset.UTC);
      Instant summerTo = changeSunday(year, Month.OCTOBER).atTime(1, 0).toInstant(ZoneOffset.UTC);
      return !instant.isBefore(summerFrom) && instant.isBefore(summerTo) ? 2 : 1;
    }

    static LocalDate balancingDay(Instant instant, Commodity commodity) {
      LocalDateTime local =
          LocalDateTime.ofEpochSecond(
              instant.getEpochSecond(),
              instant.getNano(),
              ZoneOffset.ofHours(offsetHours(instant)));
      return commodity == Commodity.GAS ? local.minusHours(6).toLocalDate() : local.toLocalDate();
    }

    /** 23 h on the day holding the March change, 25 h on the day holding October's, else 24 h. */
    static Duration dayLength(LocalDate day, Commodity commodity) {
      // A gas day holds the change of the following (Sunday) calendar date.
      LocalDate changeDate = commodity == Commodity.GAS ? day.plusDays(1) : day;
      if (changeDate.equals(changeSunday(changeDate.getYear(), Month.MARCH))) {
        return Duration.ofHours(23);
      }
      if (changeDate.equals(changeSunday(changeDate.getYear(), Month.OCTOBER))) {
        return Duration.ofHours(25);
      }
      return Duration.ofHours(24);
    }
  }
}
