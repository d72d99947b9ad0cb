package org.meterstore.api.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalidMessage;
import static org.meterstore.api.commodity.Commodity.STROM;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.meterstore.api.commodity.Commodity;

class MeteringCalendarAlignmentTest {

  @ParameterizedTest(name = "{2} {3} [{0}, {1}) aligned: {4}")
  @CsvSource({
    // quarter-hours lie on the UTC grid, also across the spring and autumn changes
    "2026-01-15T10:15:00Z, 2026-01-15T10:30:00Z, PT15M, STROM, true",
    "2026-03-29T00:45:00Z, 2026-03-29T01:00:00Z, PT15M, STROM, true",
    "2026-03-29T00:45:00Z, 2026-03-29T01:00:00Z, PT15M, GAS, true",
    "2026-10-25T00:45:00Z, 2026-10-25T01:00:00Z, PT15M, STROM, true",
    "2026-10-25T01:00:00Z, 2026-10-25T01:15:00Z, PT15M, WAERME, true",
    "2026-03-29T21:45:00Z, 2026-03-29T22:00:00Z, PT15M, STROM, true",
    "2026-01-15T10:05:00Z, 2026-01-15T10:20:00Z, PT15M, STROM, false",
    "2026-01-15T10:15:00.5Z, 2026-01-15T10:30:00.5Z, PT15M, STROM, false",
    "2026-01-15T10:15:00Z, 2026-01-15T10:45:00Z, PT15M, STROM, false",
    "2026-01-15T10:15:00Z, 2026-01-15T10:15:00Z, PT15M, STROM, false",
    "2026-01-15T10:15:00Z, 2026-01-15T10:00:00Z, PT15M, STROM, false",
    // hours: the local 02:00 that is skipped in spring is simply absent from the UTC grid
    "2026-03-29T00:00:00Z, 2026-03-29T01:00:00Z, PT1H, STROM, true",
    "2026-10-25T01:00:00Z, 2026-10-25T02:00:00Z, PT1H, GAS, true",
    "2026-01-15T10:30:00Z, 2026-01-15T11:30:00Z, PT1H, STROM, false",
    // multi-hour resolutions count from local midnight, or from 06:00 local for gas
    "2026-01-14T23:00:00Z, 2026-01-15T01:00:00Z, PT2H, STROM, true",
    "2026-01-15T00:00:00Z, 2026-01-15T02:00:00Z, PT2H, STROM, false",
    "2026-01-15T03:00:00Z, 2026-01-15T07:00:00Z, PT4H, STROM, true",
    "2026-01-15T05:00:00Z, 2026-01-15T09:00:00Z, PT4H, STROM, false",
    "2026-01-15T05:00:00Z, 2026-01-15T09:00:00Z, PT4H, GAS, true",
    "2026-01-15T03:00:00Z, 2026-01-15T07:00:00Z, PT4H, GAS, false",
    // on the 23 h day 2026-03-29 PT2H fits eleven times; the twelfth slot would leave the day
    "2026-03-29T19:00:00Z, 2026-03-29T21:00:00Z, PT2H, STROM, true",
    "2026-03-29T21:00:00Z, 2026-03-29T23:00:00Z, PT2H, STROM, false",
    "2026-03-29T22:00:00Z, 2026-03-30T00:00:00Z, PT2H, STROM, true",
    // on the 25 h gas day 2026-10-24 PT12H fits twice; the third slot would leave the day
    "2026-10-24T04:00:00Z, 2026-10-24T16:00:00Z, PT12H, GAS, true",
    "2026-10-24T16:00:00Z, 2026-10-25T04:00:00Z, PT12H, GAS, true",
    "2026-10-25T04:00:00Z, 2026-10-25T16:00:00Z, PT12H, GAS, false",
    "2026-10-25T05:00:00Z, 2026-10-25T17:00:00Z, PT12H, GAS, true",
  })
  void subDailyIntervalsMustHaveTheResolutionAndStartOnTheGrid(
      Instant from, Instant to, String resolution, Commodity commodity, boolean aligned) {
    assertThat(MeteringCalendar.isAligned(from, to, Resolution.parse(resolution), commodity))
        .isEqualTo(aligned);
  }

  @ParameterizedTest(name = "{2} {3} [{0}, {1}) aligned: {4}")
  @CsvSource({
    // the short and long calendar days and gas days of 2026
    "2026-03-28T23:00:00Z, 2026-03-29T22:00:00Z, P1D, STROM, true",
    "2026-03-28T23:00:00Z, 2026-03-29T23:00:00Z, P1D, STROM, false",
    "2026-10-24T22:00:00Z, 2026-10-25T23:00:00Z, P1D, WASSER, true",
    "2026-10-24T22:00:00Z, 2026-10-25T22:00:00Z, P1D, WASSER, false",
    "2026-03-28T05:00:00Z, 2026-03-29T04:00:00Z, P1D, GAS, true",
    "2026-10-24T04:00:00Z, 2026-10-25T05:00:00Z, P1D, GAS, true",
    "2026-10-24T04:00:00Z, 2026-10-25T04:00:00Z, P1D, GAS, false",
    "2026-03-28T23:00:00Z, 2026-03-29T22:00:00Z, P1D, GAS, false",
    "2026-03-29T00:00:00Z, 2026-03-29T23:00:00Z, P1D, STROM, false",
    // months
    "2026-02-28T23:00:00Z, 2026-03-31T22:00:00Z, P1M, STROM, true",
    "2026-03-01T05:00:00Z, 2026-04-01T04:00:00Z, P1M, GAS, true",
    "2026-02-28T23:00:00Z, 2026-03-31T22:00:00Z, P1M, GAS, false",
    "2026-02-28T23:00:00Z, 2026-03-31T23:00:00Z, P1M, STROM, false",
    "2026-03-01T23:00:00Z, 2026-04-01T22:00:00Z, P1M, STROM, false",
    // years
    "2025-12-31T23:00:00Z, 2026-12-31T23:00:00Z, P1Y, STROM, true",
    "2026-01-01T05:00:00Z, 2027-01-01T05:00:00Z, P1Y, GAS, true",
    "2025-12-31T23:00:00Z, 2026-12-31T23:00:00Z, P1Y, GAS, false",
    "2026-01-01T05:00:00Z, 2027-01-01T05:00:00Z, P1Y, STROM, false",
    "2026-01-31T23:00:00Z, 2027-01-31T23:00:00Z, P1Y, STROM, false",
  })
  void dailyMonthlyAndYearlyIntervalsMustCoverExactlyOneBalancingPeriod(
      Instant from, Instant to, String resolution, Commodity commodity, boolean aligned) {
    assertThat(MeteringCalendar.isAligned(from, to, Resolution.parse(resolution), commodity))
        .isEqualTo(aligned);
  }

  @ParameterizedTest(name = "{1} {2} point at {0} aligned: {3}")
  @CsvSource({
    "2026-03-29T01:00:00Z, PT15M, STROM, true",
    "2026-03-29T01:07:00Z, PT15M, STROM, false",
    "2026-03-28T23:00:00Z, P1D, STROM, true",
    "2026-03-29T00:00:00Z, P1D, STROM, false",
    "2026-03-29T04:00:00Z, P1D, GAS, true",
    "2026-10-01T04:00:00Z, P1M, GAS, true",
    "2026-10-01T05:00:00Z, P1M, GAS, false",
    "2025-12-31T23:00:00Z, P1Y, WAERME, true",
    "2026-01-01T00:00:00Z, P1Y, WAERME, false",
  })
  void pointReadingsAreCheckedOnlyAgainstTheGrid(
      Instant at, String resolution, Commodity commodity, boolean aligned) {
    assertThat(MeteringCalendar.isAligned(at, null, Resolution.parse(resolution), commodity))
        .isEqualTo(aligned);
  }

  @Test
  void refusesMissingArgumentsWithTypedErrors() {
    Instant from = Instant.parse("2026-01-15T10:00:00Z");
    Instant to = Instant.parse("2026-01-15T10:15:00Z");

    assertInvalidMessage(
        () -> MeteringCalendar.isAligned(null, to, Resolution.PT15M, STROM),
        "Invalid from: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.isAligned(from, to, null, STROM),
        "Invalid resolution: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.isAligned(from, to, Resolution.PT15M, null),
        "Invalid commodity: null (required)");
    assertInvalidMessage(
        () -> MeteringCalendar.isAligned(Instant.MAX, null, Resolution.P1Y, STROM),
        "Invalid instant: '" + Instant.MAX + "' (outside the supported date range)");
  }

  /**
   * A grid that divides an hour is decided without zone arithmetic; it must agree with the rule
   * itself — a whole number of steps from the start of the balancing day, the interval one step
   * long and inside the day — for every commodity, through both clock changes of several years, on
   * the grid and off it.
   */
  @Test
  void aGridThatDividesAnHourAgreesWithCountingFromTheDayStart() {
    java.util.Random random = new java.util.Random(20261205L);
    List<Resolution> grids = List.of(Resolution.PT15M, Resolution.PT1H, Resolution.parse("PT5M"));
    Instant first = Instant.parse("2019-01-01T00:00:00Z");
    for (int i = 0; i < 200_000; i++) {
      Resolution r = grids.get(random.nextInt(grids.size()));
      long step = r.fixedLength().orElseThrow().getSeconds();
      // mostly on a 5-minute grid, sometimes a second or a half off it
      Instant from =
          first.plusSeconds(
              300L * random.nextInt(12 * 24 * 365 * 10) + (random.nextInt(20) == 0 ? 1 : 0));
      Instant to = random.nextInt(10) == 0 ? from.plusSeconds(step * 2) : from.plusSeconds(step);
      for (Commodity commodity : Commodity.values()) {
        LocalDate day = MeteringCalendar.balancingDay(from, commodity);
        long offset =
            java.time.Duration.between(MeteringCalendar.dayStart(day, commodity), from)
                .getSeconds();
        boolean expected =
            offset % step == 0
                && to.equals(from.plusSeconds(step))
                && !to.isAfter(MeteringCalendar.dayEnd(day, commodity));
        assertThat(MeteringCalendar.isAligned(from, to, r, commodity))
            .as("%s %s [%s, %s)", r, commodity, from, to)
            .isEqualTo(expected);
        assertThat(MeteringCalendar.isAligned(from, null, r, commodity))
            .as("%s %s point %s", r, commodity, from)
            .isEqualTo(offset % step == 0);
      }
    }
  }
}
