package org.meterstore.api.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalidMessage;
import static org.meterstore.api.commodity.Commodity.GAS;
import static org.meterstore.api.commodity.Commodity.STROM;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.meterstore.api.commodity.Commodity;

class MeteringCalendarTest {

  @Test
  void everyMonthStartIsItsFirstDaysStartInsideAndOutsideTheTable() {
    for (YearMonth m = YearMonth.of(1969, 11);
        m.isBefore(YearMonth.of(2200, 3));
        m = m.plusMonths(1)) {
      for (org.meterstore.api.commodity.Commodity c :
          org.meterstore.api.commodity.Commodity.values()) {
        assertThat(MeteringCalendar.monthStart(m, c))
            .isEqualTo(MeteringCalendar.dayStart(m.atDay(1), c));
        assertThat(MeteringCalendar.monthEnd(m, c))
            .isEqualTo(MeteringCalendar.dayStart(m.plusMonths(1).atDay(1), c));
      }
    }
    assertThat(MeteringCalendar.monthStart(YearMonth.of(2026, 3), GAS))
        .isEqualTo(Instant.parse("2026-03-01T05:00:00Z"));
    assertThat(MeteringCalendar.monthStart(YearMonth.of(2026, 4), STROM))
        .isEqualTo(Instant.parse("2026-03-31T22:00:00Z"));
  }

  @Test
  void zoneIsEuropeBerlin() {
    assertThat(MeteringCalendar.ZONE).isEqualTo(ZoneId.of("Europe/Berlin"));
  }

  @ParameterizedTest(name = "{1} {0}: {2} h, {3} quarter-hours")
  @CsvSource({
    // calendar days: the clocks change on the last Sundays of March and October
    "2025-03-30, STROM, 23, 92, 1380",
    "2025-10-26, STROM, 25, 100, 1500",
    "2026-03-29, STROM, 23, 92, 1380",
    "2026-10-25, STROM, 25, 100, 1500",
    "2027-03-28, STROM, 23, 92, 1380",
    "2027-10-31, STROM, 25, 100, 1500",
    "2026-03-29, WAERME, 23, 92, 1380",
    "2026-10-25, WASSER, 25, 100, 1500",
    // gas days: the change falls before 06:00, inside the gas day named after the Saturday
    "2025-03-29, GAS, 23, 92, 1380",
    "2025-10-25, GAS, 25, 100, 1500",
    "2026-03-28, GAS, 23, 92, 1380",
    "2026-10-24, GAS, 25, 100, 1500",
    "2027-03-27, GAS, 23, 92, 1380",
    "2027-10-30, GAS, 25, 100, 1500",
    // ... so the gas days named after the Sundays are ordinary
    "2025-03-30, GAS, 24, 96, 1440",
    "2025-10-26, GAS, 24, 96, 1440",
    "2026-03-29, GAS, 24, 96, 1440",
    "2026-10-25, GAS, 24, 96, 1440",
    "2027-03-28, GAS, 24, 96, 1440",
    "2027-10-31, GAS, 24, 96, 1440",
    // ... and the calendar Saturdays are ordinary too
    "2025-03-29, STROM, 24, 96, 1440",
    "2026-10-24, STROM, 24, 96, 1440",
    "2027-03-27, STROM, 24, 96, 1440",
    // ordinary days in winter, summer and on a leap day
    "2026-01-15, STROM, 24, 96, 1440",
    "2026-07-01, GAS, 24, 96, 1440",
    "2028-02-29, STROM, 24, 96, 1440",
  })
  void countsIntervalsExactlyAcrossDaylightSavingChanges(
      LocalDate day, Commodity commodity, long hours, long quarterHours, long minutes) {
    assertThat(MeteringCalendar.dayLength(day, commodity)).isEqualTo(Duration.ofHours(hours));
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.PT15M, commodity))
        .isEqualTo(quarterHours);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.parse("PT1M"), commodity))
        .isEqualTo(minutes);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.PT1H, commodity))
        .isEqualTo(hours);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.parse("PT1S"), commodity))
        .isEqualTo(hours * 3600);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.P1D, commodity)).isOne();
  }

  @ParameterizedTest(name = "{1} {0}: [{2}, {3})")
  @CsvSource({
    "2026-01-15, STROM, 2026-01-14T23:00:00Z, 2026-01-15T23:00:00Z",
    "2026-07-01, STROM, 2026-06-30T22:00:00Z, 2026-07-01T22:00:00Z",
    "2026-03-29, STROM, 2026-03-28T23:00:00Z, 2026-03-29T22:00:00Z",
    "2026-10-25, STROM, 2026-10-24T22:00:00Z, 2026-10-25T23:00:00Z",
    "2026-01-15, GAS, 2026-01-15T05:00:00Z, 2026-01-16T05:00:00Z",
    "2026-07-01, GAS, 2026-07-01T04:00:00Z, 2026-07-02T04:00:00Z",
    "2026-03-28, GAS, 2026-03-28T05:00:00Z, 2026-03-29T04:00:00Z",
    "2026-03-29, GAS, 2026-03-29T04:00:00Z, 2026-03-30T04:00:00Z",
    "2026-10-24, GAS, 2026-10-24T04:00:00Z, 2026-10-25T05:00:00Z",
  })
  void balancingDaysRunFromLocalMidnightOrSixOClockForGas(
      LocalDate day, Commodity commodity, Instant start, Instant end) {
    assertThat(MeteringCalendar.dayStart(day, commodity)).isEqualTo(start);
    assertThat(MeteringCalendar.dayEnd(day, commodity)).isEqualTo(end);
    assertThat(MeteringCalendar.balancingDay(start, commodity)).isEqualTo(day);
    assertThat(MeteringCalendar.balancingDay(end.minusNanos(1), commodity)).isEqualTo(day);
    assertThat(MeteringCalendar.balancingDay(end, commodity)).isEqualTo(day.plusDays(1));
  }

  @ParameterizedTest(name = "{0} is on gas day {1}")
  @CsvSource({
    // winter (CET, UTC+1): 05:59 local is 04:59Z, 06:00 local is 05:00Z
    "2026-01-15T04:59:59Z, 2026-01-14",
    "2026-01-15T05:00:00Z, 2026-01-15",
    // summer (CEST, UTC+2): 05:59 local is 03:59Z, 06:00 local is 04:00Z
    "2026-07-01T03:59:59Z, 2026-06-30",
    "2026-07-01T04:00:00Z, 2026-07-01",
    // local midnight does not start a gas day
    "2026-01-14T23:00:00Z, 2026-01-14",
    // 2026-03-29 03:00 CEST, just after the spring change, belongs to Saturday's gas day
    "2026-03-29T01:00:00Z, 2026-03-28",
    "2026-03-29T03:59:59Z, 2026-03-28",
    "2026-03-29T04:00:00Z, 2026-03-29",
    // both 02:30 on 2026-10-25 (CEST, then CET) belong to Saturday's gas day
    "2026-10-25T00:30:00Z, 2026-10-24",
    "2026-10-25T01:30:00Z, 2026-10-24",
    "2026-10-25T04:59:59Z, 2026-10-24",
    "2026-10-25T05:00:00Z, 2026-10-25",
  })
  void gasDayChangesAtSixOClockLocalTime(Instant instant, LocalDate gasDay) {
    assertThat(MeteringCalendar.gasDay(instant)).isEqualTo(gasDay);
  }

  @ParameterizedTest(name = "{0} is on local day {1}")
  @CsvSource({
    "2026-01-14T22:59:59Z, 2026-01-14", "2026-01-14T23:00:00Z, 2026-01-15",
    "2026-06-30T21:59:59Z, 2026-06-30", "2026-06-30T22:00:00Z, 2026-07-01",
    "2026-03-29T01:00:00Z, 2026-03-29", "2026-10-25T01:30:00Z, 2026-10-25",
  })
  void localDayChangesAtLocalMidnight(Instant instant, LocalDate day) {
    assertThat(MeteringCalendar.localDay(instant)).isEqualTo(day);
  }

  @ParameterizedTest
  @EnumSource(Commodity.class)
  void balancingDayIsTheGasDayOnlyForGas(Commodity commodity) {
    Instant halfPastFiveLocal = Instant.parse("2026-01-15T04:30:00Z");
    LocalDate expected = commodity == GAS ? LocalDate.of(2026, 1, 14) : LocalDate.of(2026, 1, 15);

    assertThat(MeteringCalendar.balancingDay(halfPastFiveLocal, commodity)).isEqualTo(expected);
    assertThat(MeteringCalendar.balancingDay(Instant.parse("2026-01-15T05:00:00Z"), commodity))
        .isEqualTo(LocalDate.of(2026, 1, 15));
  }

  @ParameterizedTest
  @EnumSource(Commodity.class)
  void balancingMonthOfTheFirstMorningDependsOnTheCommodity(Commodity commodity) {
    Instant fiveFiftyNineOnFebruaryFirst = Instant.parse("2026-02-01T04:59:00Z");
    Instant fiveFiftyNineOnNewYear = Instant.parse("2026-01-01T04:59:00Z");

    assertThat(MeteringCalendar.balancingMonth(fiveFiftyNineOnFebruaryFirst, commodity))
        .isEqualTo(commodity == GAS ? YearMonth.of(2026, 1) : YearMonth.of(2026, 2));
    assertThat(MeteringCalendar.balancingMonth(fiveFiftyNineOnNewYear, commodity))
        .isEqualTo(commodity == GAS ? YearMonth.of(2025, 12) : YearMonth.of(2026, 1));
  }

  @ParameterizedTest(name = "{1} {0}: [{2}, {3}), {4} h")
  @CsvSource({
    "2026-01, STROM, 2025-12-31T23:00:00Z, 2026-01-31T23:00:00Z, 744",
    "2026-03, STROM, 2026-02-28T23:00:00Z, 2026-03-31T22:00:00Z, 743",
    "2026-10, STROM, 2026-09-30T22:00:00Z, 2026-10-31T23:00:00Z, 745",
    "2028-02, STROM, 2028-01-31T23:00:00Z, 2028-02-29T23:00:00Z, 696",
    "2026-01, GAS, 2026-01-01T05:00:00Z, 2026-02-01T05:00:00Z, 744",
    "2026-03, GAS, 2026-03-01T05:00:00Z, 2026-04-01T04:00:00Z, 743",
    "2026-10, GAS, 2026-10-01T04:00:00Z, 2026-11-01T05:00:00Z, 745",
    "2026-12, GAS, 2026-12-01T05:00:00Z, 2027-01-01T05:00:00Z, 744",
  })
  void balancingMonthsStartWithTheirFirstBalancingDay(
      YearMonth month, Commodity commodity, Instant start, Instant end, long hours) {
    assertThat(MeteringCalendar.monthStart(month, commodity)).isEqualTo(start);
    assertThat(MeteringCalendar.monthEnd(month, commodity)).isEqualTo(end);
    assertThat(Duration.between(start, end)).isEqualTo(Duration.ofHours(hours));
    assertThat(MeteringCalendar.balancingMonth(start, commodity)).isEqualTo(month);
    assertThat(MeteringCalendar.balancingMonth(end, commodity)).isEqualTo(month.plusMonths(1));
  }

  @Test
  void multiHourResolutionsCountOnOrdinaryDays() {
    LocalDate day = LocalDate.of(2026, 1, 15);

    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.parse("PT2H"), STROM))
        .isEqualTo(12);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.parse("PT1H30M"), GAS))
        .isEqualTo(16);
    assertThat(MeteringCalendar.expectedIntervals(day, Resolution.parse("PT12H"), GAS))
        .isEqualTo(2);
  }

  @Test
  void refusesToCountResolutionsThatDoNotDivideAShortOrLongDay() {
    assertInvalidMessage(
        () ->
            MeteringCalendar.expectedIntervals(
                LocalDate.of(2026, 3, 29), Resolution.parse("PT2H"), STROM),
        "Invalid resolution: 'PT2H' (does not divide balancing day 2026-03-29 of STROM, which"
            + " lasts PT23H)");
    assertInvalidMessage(
        () ->
            MeteringCalendar.expectedIntervals(
                LocalDate.of(2026, 10, 24), Resolution.parse("PT12H"), GAS),
        "Invalid resolution: 'PT12H' (does not divide balancing day 2026-10-24 of GAS, which"
            + " lasts PT25H)");
  }

  @Test
  void refusesToCountMonthsOrYearsPerDay() {
    LocalDate day = LocalDate.of(2026, 1, 15);

    assertInvalidMessage(
        () -> MeteringCalendar.expectedIntervals(day, Resolution.P1M, STROM),
        "Invalid resolution: 'P1M' (no fixed interval count per day)");
    assertInvalidMessage(
        () -> MeteringCalendar.expectedIntervals(day, Resolution.P1Y, GAS),
        "Invalid resolution: 'P1Y' (no fixed interval count per day)");
  }

  @Test
  void refusesMissingArgumentsWithTypedErrors() {
    LocalDate day = LocalDate.of(2026, 1, 15);
    Instant instant = Instant.parse("2026-01-15T12:00:00Z");
    YearMonth month = YearMonth.of(2026, 1);

    assertInvalidMessage(() -> MeteringCalendar.localDay(null), "Invalid instant: null (required)");
    assertInvalidMessage(() -> MeteringCalendar.gasDay(null), "Invalid instant: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.balancingDay(instant, null), "Invalid commodity: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.balancingMonth(null, GAS), "Invalid instant: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.dayStart(null, STROM), "Invalid day: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.dayEnd(day, null), "Invalid commodity: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.dayLength(null, GAS), "Invalid day: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.monthStart(null, GAS), "Invalid month: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.monthEnd(month, null), "Invalid commodity: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.expectedIntervals(day, null, STROM),
        "Invalid resolution: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.expectedIntervals(null, Resolution.PT15M, STROM),
        "Invalid day: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.expectedIntervals(day, Resolution.PT15M, null),
        "Invalid commodity: null (required)");
  }

  @Test
  void refusesDatesAndInstantsBeyondTheRepresentableRangeWithTypedErrors() {
    String rule = " (outside the supported date range)";

    assertInvalidMessage(
        () -> MeteringCalendar.localDay(Instant.MAX),
        "Invalid instant: '" + Instant.MAX + "'" + rule);
    assertInvalidMessage(
        () -> MeteringCalendar.gasDay(Instant.MIN),
        "Invalid instant: '" + Instant.MIN + "'" + rule);
    assertInvalidMessage(
        () -> MeteringCalendar.balancingMonth(Instant.MAX, GAS),
        "Invalid instant: '" + Instant.MAX + "'" + rule);
    assertInvalidMessage(
        () -> MeteringCalendar.dayEnd(LocalDate.MAX, STROM),
        "Invalid day: '" + LocalDate.MAX + "'" + rule);
    assertInvalidMessage(
        () -> MeteringCalendar.dayLength(LocalDate.MAX, GAS),
        "Invalid day: '" + LocalDate.MAX + "'" + rule);
    assertInvalidMessage(
        () ->
            MeteringCalendar.gasDay(LocalDate.MIN.atStartOfDay(MeteringCalendar.ZONE).toInstant()),
        "Invalid instant: '"
            + LocalDate.MIN.atStartOfDay(MeteringCalendar.ZONE).toInstant()
            + "'"
            + rule);
    YearMonth last = YearMonth.of(LocalDate.MAX.getYear(), 12);
    assertInvalidMessage(
        () -> MeteringCalendar.monthEnd(last, STROM), "Invalid month: '" + last + "'" + rule);
  }
}
