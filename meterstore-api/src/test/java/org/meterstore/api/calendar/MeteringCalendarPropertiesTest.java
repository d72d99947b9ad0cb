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
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Samples;
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

  @Test
  void twelveBalancingMonthsSumToExactlyOneYearForEveryYearAndCommodity() {
    for (int year = 1990; year <= 2100; year++) {
      for (Commodity commodity : Commodity.values()) {
        assertTwelveMonthsSumToOneYear(year, commodity);
      }
    }
  }

  private static void assertTwelveMonthsSumToOneYear(int year, Commodity commodity) {
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
    assertThat(sum).as("%s %s", year, commodity).isEqualTo(Duration.ofHours(24L * days));
  }

  @Test
  void dayLengthFollowsTheEuSummerTimeRuleOnEveryDay() {
    for (long d = FIRST_DAY.toEpochDay(); d <= LAST_DAY.toEpochDay(); d++) {
      LocalDate day = LocalDate.ofEpochDay(d);
      for (Commodity commodity : Commodity.values()) {
        assertThat(MeteringCalendar.dayLength(day, commodity))
            .as("%s %s", day, commodity)
            .isEqualTo(Reference.dayLength(day, commodity));
      }
    }
  }

  @ParameterizedTest
  @MethodSource("daysResolutionsAndCommodities")
  void expectedIntervalsTimesResolutionIsTheDayLength(
      LocalDate day, Resolution resolution, Commodity commodity) {
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

  @ParameterizedTest
  @MethodSource("instantsAndCommodities")
  void everyInstantLiesInsideItsBalancingDayAndMonth(Instant instant, Commodity commodity) {
    LocalDate day = MeteringCalendar.balancingDay(instant, commodity);
    YearMonth month = MeteringCalendar.balancingMonth(instant, commodity);

    assertThat(day).isEqualTo(Reference.balancingDay(instant, commodity));
    assertThat(MeteringCalendar.dayStart(day, commodity)).isBeforeOrEqualTo(instant);
    assertThat(MeteringCalendar.dayEnd(day, commodity)).isAfter(instant);
    assertThat(month).isEqualTo(YearMonth.from(day));
    assertThat(MeteringCalendar.monthStart(month, commodity)).isBeforeOrEqualTo(instant);
    assertThat(MeteringCalendar.monthEnd(month, commodity)).isAfter(instant);
  }

  @ParameterizedTest
  @MethodSource("instantsHourDivisorsAndCommodities")
  void resolutionsDividingAnHourAlignOnTheUtcGrid(
      Instant from, Resolution resolution, Commodity commodity) {
    long step = resolution.fixedLength().orElseThrow().getSeconds();
    boolean onUtcGrid = Math.floorMod(from.getEpochSecond(), step) == 0;
    Instant to = from.plusSeconds(step);

    assertThat(MeteringCalendar.isAligned(from, null, resolution, commodity)).isEqualTo(onUtcGrid);
    assertThat(MeteringCalendar.isAligned(from, to, resolution, commodity)).isEqualTo(onUtcGrid);
    assertThat(MeteringCalendar.isAligned(from, to.plusSeconds(step), resolution, commodity))
        .isFalse();
  }

  @ParameterizedTest
  @MethodSource("instantsAndCommodities")
  void everyBalancingPeriodIsAlignedAndAnHourOffIsNot(Instant instant, Commodity commodity) {
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

  private static final List<Commodity> COMMODITIES = List.of(Commodity.values());
  private static final int SAMPLES = 2_000;

  static Stream<Arguments> daysResolutionsAndCommodities() {
    List<Resolution> resolutions = divisorsBelow(SECONDS_PER_DAY);
    return Samples.of(
        11,
        SAMPLES,
        r -> Arguments.of(day(r), Samples.pick(r, resolutions), Samples.pick(r, COMMODITIES)));
  }

  static Stream<Arguments> instantsAndCommodities() {
    return Samples.of(12, SAMPLES, r -> Arguments.of(instant(r), Samples.pick(r, COMMODITIES)));
  }

  static Stream<Arguments> instantsHourDivisorsAndCommodities() {
    List<Resolution> hourDivisors =
        divisorsBelow(SECONDS_PER_DAY).stream()
            .filter(res -> 3600 % res.fixedLength().orElseThrow().getSeconds() == 0)
            .collect(Collectors.toList());
    return Samples.of(
        13,
        SAMPLES,
        r ->
            Arguments.of(
                alignedOrNot(r, instant(r), hourDivisors),
                Samples.pick(r, hourDivisors),
                Samples.pick(r, COMMODITIES)));
  }

  /** Any day, or (half the time) a day next to a clock change. */
  private static LocalDate day(Random r) {
    if (r.nextBoolean()) {
      return LocalDate.ofEpochDay(
          FIRST_DAY.toEpochDay()
              + r.nextInt((int) (LAST_DAY.toEpochDay() - FIRST_DAY.toEpochDay() + 1)));
    }
    int year = FIRST_DAY.getYear() + r.nextInt(LAST_DAY.getYear() - FIRST_DAY.getYear() + 1);
    Month month = r.nextBoolean() ? Month.MARCH : Month.OCTOBER;
    return Reference.changeSunday(year, month).plusDays(r.nextInt(3) - 1L);
  }

  /** Any instant, or (half the time) one within three hours of a local midnight or 06:00. */
  private static Instant instant(Random r) {
    if (r.nextBoolean()) {
      long first = FIRST_DAY.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
      long last = LAST_DAY.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
      return Instant.ofEpochSecond(first + (long) (r.nextDouble() * (last - first)));
    }
    LocalTime time = r.nextBoolean() ? LocalTime.MIDNIGHT : LocalTime.of(6, 0);
    return day(r)
        .atTime(time)
        .atZone(MeteringCalendar.ZONE)
        .toInstant()
        .plusSeconds(r.nextInt(6 * 3600 + 1) - 3 * 3600L);
  }

  /** Half the time, {@code instant} moved onto the grid of one of {@code resolutions}. */
  private static Instant alignedOrNot(Random r, Instant instant, List<Resolution> resolutions) {
    if (r.nextBoolean()) {
      return instant;
    }
    long step = Samples.pick(r, resolutions).fixedLength().orElseThrow().getSeconds();
    return Instant.ofEpochSecond(
        instant.getEpochSecond() - Math.floorMod(instant.getEpochSecond(), step));
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
