package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Reading;

/** A table with one declared resolution: its grid rule and which tables need the span index. */
class FixedResolutionTableTest {
  static final TableDefinition QUARTER_HOURS =
      TableDefinition.interval("lastgang").withResolution(Resolution.PT15M);
  static final TableDefinition DAYS =
      TableDefinition.interval("tageswerte").withResolution(Resolution.P1D);

  static Reading span(Commodity commodity, String from, String to) {
    return Reading.builder()
        .malo("51238696781")
        .obis(commodity == Commodity.GAS ? "7-0:3.0.0" : "1-0:1.8.0")
        .commodity(commodity)
        .unit(Unit.KWH)
        .interval(Instant.parse(from), Instant.parse(to))
        .value("1")
        .operator("9900000000003")
        .build();
  }

  @Test
  void aQuarterHourTableAcceptsQuarterHoursOnTheGridAcrossBothDaylightSavingChanges() {
    // 2026-03-29: 02:00 CET -> 03:00 CEST at 01:00Z; 2026-10-25: 03:00 CEST -> 02:00 CET at 01:00Z.
    for (String from :
        new String[] {
          "2026-03-29T00:45:00Z",
          "2026-03-29T01:00:00Z",
          "2026-10-25T00:45:00Z",
          "2026-10-25T01:00:00Z",
          "2026-10-25T01:15:00Z"
        }) {
      Instant f = Instant.parse(from);
      assertThatCode(
              () ->
                  QUARTER_HOURS.accept(span(Commodity.STROM, from, f.plusSeconds(900).toString())))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aQuarterHourTableRefusesAnOffGridStartAWrongEndAndAnotherResolution() {
    assertInvalid(
        () ->
            QUARTER_HOURS.accept(
                span(Commodity.STROM, "2026-05-01T10:05:00Z", "2026-05-01T10:20:00Z")),
        "Invalid interval: '[2026-05-01T10:05:00Z, 2026-05-01T10:20:00Z)'",
        "table lastgang holds one PT15M interval per reading",
        "(" + TableDefinition.GRID_RULE + ")");
    assertInvalid(
        () ->
            QUARTER_HOURS.accept(
                span(Commodity.STROM, "2026-05-01T10:00:00Z", "2026-05-01T10:30:00Z")),
        "Invalid interval",
        TableDefinition.GRID_RULE);
    Reading hour =
        span(Commodity.STROM, "2026-05-01T10:00:00Z", "2026-05-01T11:00:00Z").toBuilder()
            .resolution(Resolution.PT1H)
            .build();
    assertInvalid(
        () -> QUARTER_HOURS.accept(hour),
        "Invalid resolution: 'PT1H'",
        "PT15M",
        TableDefinition.GRID_RULE);
  }

  @Test
  void aReadingThatNamesTheTablesResolutionOrNoneIsAccepted() {
    Reading named =
        span(Commodity.STROM, "2026-05-01T10:00:00Z", "2026-05-01T10:15:00Z").toBuilder()
            .resolution(Resolution.parse("PT900S"))
            .build();
    assertThatCode(() -> QUARTER_HOURS.accept(named)).doesNotThrowAnyException();
  }

  @Test
  void aDailyTableHoldsBerlinCalendarDaysAndGasDaysOfEveryLength() {
    // Spring: the Sunday calendar day has 23 h; the Saturday gas day has 23 h.
    assertThatCode(
            () ->
                DAYS.accept(span(Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z")))
        .doesNotThrowAnyException();
    assertThatCode(
            () -> DAYS.accept(span(Commodity.GAS, "2026-03-28T05:00:00Z", "2026-03-29T04:00:00Z")))
        .doesNotThrowAnyException();
    // Autumn: 25 h.
    assertThatCode(
            () ->
                DAYS.accept(span(Commodity.STROM, "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z")))
        .doesNotThrowAnyException();
    assertThatCode(
            () -> DAYS.accept(span(Commodity.GAS, "2026-10-24T04:00:00Z", "2026-10-25T05:00:00Z")))
        .doesNotThrowAnyException();
  }

  @Test
  void aDailyTableRefusesTwentyFourHoursOnADaylightSavingDayAndACalendarDayOfGas() {
    assertInvalid(
        () -> DAYS.accept(span(Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T23:00:00Z")),
        "Invalid interval",
        "one P1D interval per reading",
        TableDefinition.GRID_RULE);
    assertInvalid(
        () -> DAYS.accept(span(Commodity.GAS, "2026-05-01T22:00:00Z", "2026-05-02T22:00:00Z")),
        "Invalid interval",
        "from the gas day's 06:00",
        TableDefinition.GRID_RULE);
    assertInvalid(
        () -> DAYS.accept(span(Commodity.STROM, "2026-05-01T04:00:00Z", "2026-05-02T04:00:00Z")),
        TableDefinition.GRID_RULE);
  }

  @Test
  void onlyResolutionsDividingAnHourMakeTheSpanIndexRedundant() {
    assertThat(TableDefinition.interval("t").gridExcludesOverlap()).isFalse();
    for (String r : new String[] {"PT1S", "PT1M", "PT5M", "PT15M", "PT30M", "PT1H"}) {
      assertThat(TableDefinition.interval("t").withResolution(Resolution.parse(r)))
          .extracting(TableDefinition::gridExcludesOverlap)
          .as(r)
          .isEqualTo(true);
    }
    for (String r : new String[] {"PT2H", "PT1H30M", "PT12H", "P1D", "P1M", "P1Y"}) {
      assertThat(TableDefinition.interval("t").withResolution(Resolution.parse(r)))
          .extracting(TableDefinition::gridExcludesOverlap)
          .as(r)
          .isEqualTo(false);
    }
  }

  @Test
  void aFixedResolutionIsForIntervalTablesOnlyAndSurvivesTheWithMethods() {
    assertInvalid(
        () -> TableDefinition.point("zaehlerstand").withResolution(Resolution.PT15M),
        "Invalid resolution: 'PT15M'",
        "INTERVAL tables only");
    assertThat(
            QUARTER_HOURS
                .withPolicy(TablePolicy.DEFAULTS)
                .withMeloInKey(true)
                .withSubjectColumn("subject_ref")
                .withExtraColumns(java.util.List.of(ExtraColumn.identity("tenant")))
                .resolution())
        .isEqualTo(Resolution.PT15M);
    assertThat(QUARTER_HOURS.withResolution(null).resolution()).isNull();
  }
}
