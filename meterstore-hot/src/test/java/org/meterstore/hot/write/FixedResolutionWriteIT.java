package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Writes to fixed-resolution tables: the Berlin grid across both clock changes, for quarter-hours,
 * calendar days and gas days, and refused batches that leave no row.
 */
@ExtendWith(PostgresExtension.class)
class FixedResolutionWriteIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition QUARTER_HOURS =
      TableDefinition.interval("lastgang").withResolution(Resolution.PT15M);
  private static final TableDefinition DAYS =
      TableDefinition.interval("tageswerte").withResolution(Resolution.P1D);
  private static final String V1 = "20260303000000";

  private static HotStore store;
  private final TestDatabase db;

  FixedResolutionWriteIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(QUARTER_HOURS, DAYS), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void storesThe92And100QuarterHoursOfTheDaysTheClocksChange() throws SQLException {
    assertThat(
            store.write(QUARTER_HOURS, quarterHours(1, "2026-03-28T23:00:00Z", 92), NOW).stored())
        .isEqualTo(92);
    assertThat(
            store.write(QUARTER_HOURS, quarterHours(1, "2026-10-24T22:00:00Z", 100), NOW).stored())
        .isEqualTo(100);
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM meterstore.lastgang WHERE malo_id = '"
                    + Fixtures.malo(1)
                    + "' AND balancing_day IN ('2026-03-29', '2026-10-25')"))
        .isEqualTo(192);
  }

  @Test
  void refusesABatchWithOneQuarterHourOffTheGridAndStoresNoneOfIt() throws SQLException {
    List<Reading> batch = quarterHours(2, "2026-05-01T22:00:00Z", 96);
    Instant off = Instant.parse("2026-05-02T10:07:00Z");
    batch.set(
        41,
        quarterHour(2, off, "1", V1).resolution(null).interval(off, off.plusSeconds(900)).build());
    refused(
        QUARTER_HOURS,
        batch,
        "Cannot write to table lastgang: reading #41 Reading[" + Fixtures.malo(2),
        "Invalid interval: '[2026-05-02T10:07:00Z, 2026-05-02T10:22:00Z)'",
        "(table lastgang holds one PT15M interval per reading, aligned in Europe/Berlin"
            + " (span_on_resolution_grid))");
  }

  @Test
  void refusesAQuarterHourStartWithTheWrongEnd() throws SQLException {
    Instant from = Instant.parse("2026-05-02T10:00:00Z");
    refused(
        QUARTER_HOURS,
        List.of(
            quarterHour(3, from, "1", V1)
                .resolution(null)
                .interval(from, from.plus(Duration.ofMinutes(30)))
                .build()),
        "reading #0",
        "Invalid interval",
        "(span_on_resolution_grid)");
  }

  @Test
  void storesCalendarDaysAndGasDaysOfTwentyThreeAndTwentyFiveHours() throws SQLException {
    List<Reading> days =
        List.of(
            day(4, Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z"),
            day(4, Commodity.STROM, "2026-10-24T22:00:00Z", "2026-10-25T23:00:00Z"),
            day(5, Commodity.GAS, "2026-03-28T05:00:00Z", "2026-03-29T04:00:00Z"),
            day(5, Commodity.GAS, "2026-10-24T04:00:00Z", "2026-10-25T05:00:00Z"));
    assertThat(store.write(DAYS, days, NOW).stored()).isEqualTo(4);
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM meterstore.tageswerte WHERE malo_id = '"
                    + Fixtures.malo(5)
                    + "' AND balancing_day IN ('2026-03-28', '2026-10-24')"))
        .isEqualTo(2);
  }

  @Test
  void refusesTwentyFourHoursOnAShortDayAndACalendarDayOfGas() throws SQLException {
    Reading twentyFour =
        day(6, Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z").toBuilder()
            .resolution(null)
            .interval(Instant.parse("2026-03-28T23:00:00Z"), Instant.parse("2026-03-29T23:00:00Z"))
            .build();
    refused(DAYS, List.of(twentyFour), "reading #0", "one P1D interval", "span_on_resolution_grid");
    Reading gasAtMidnight =
        quarterHour(6, Instant.parse("2026-05-02T22:00:00Z"), "24", V1)
            .commodity(Commodity.GAS)
            .unit(Unit.KWH)
            .resolution(null)
            .interval(Instant.parse("2026-05-02T22:00:00Z"), Instant.parse("2026-05-03T22:00:00Z"))
            .build();
    refused(
        DAYS,
        List.of(
            day(6, Commodity.GAS, "2026-05-01T04:00:00Z", "2026-05-02T04:00:00Z"), gasAtMidnight),
        "reading #1",
        "from the gas day's 06:00",
        "span_on_resolution_grid");
  }

  private void refused(TableDefinition table, List<Reading> batch, String... fragments)
      throws SQLException {
    List<String> before = Fixtures.rows(db, SCHEMA, table.name());
    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(table, batch, NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.isRetryable()).isFalse();
    assertThat(e.getMessage()).contains(fragments);
    assertThat(Fixtures.rows(db, SCHEMA, table.name())).isEqualTo(before);
  }

  private static List<Reading> quarterHours(int meter, String start, int count) {
    List<Reading> readings = new ArrayList<>();
    Instant from = Instant.parse(start);
    for (int i = 0; i < count; i++) {
      readings.add(quarterHour(meter, from.plusSeconds(900L * i), "1", V1).build());
    }
    return readings;
  }

  private static Reading day(int meter, Commodity commodity, String from, String to) {
    return quarterHour(meter, Instant.parse(from), "24", V1)
        .commodity(commodity)
        .unit(Unit.KWH)
        .resolution(Resolution.P1D)
        .interval(Instant.parse(from), Instant.parse(to))
        .build();
  }
}
