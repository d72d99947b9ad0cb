package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * {@code importHistory} through the façade against real PostgreSQL and Iceberg: a month of 100
 * meters imported equals the same month appended and archived, row for row and in SQL answers; a
 * re-run reports everything {@code DUPLICATE} and commits nothing; an unsettled range, a range with
 * hot rows, and a below-W file restating a stored value are refused with nothing written.
 */
@ExtendWith(PostgresExtension.class)
class ImportHistoryIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-02-20T00:00:00Z");

  /** The Berlin month March 2026 in UTC. */
  private static final Instant MARCH = Instant.parse("2026-02-28T23:00:00Z");

  private static final Instant APRIL = Instant.parse("2026-03-31T22:00:00Z");
  private static final Instant APR1_UTC = Instant.parse("2026-04-01T00:00:00Z");
  private static final int METERS = 100;

  @TempDir static Path warehouse;
  @TempDir static Path files;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aMonthImportedEqualsTheSameMonthAppendedAndArchivedAndARerunIsAllDuplicate()
      throws Exception {
    TableDefinition appended = CatalogFixture.table("appended", LAG, GRACE);
    TableDefinition imported = CatalogFixture.table("imported", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(appended, imported), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Instant writtenAt = APRIL.plus(Duration.ofHours(2));
      List<Reading> batch = new ArrayList<>();
      for (Instant t = MARCH; t.isBefore(APRIL); t = t.plus(Duration.ofMinutes(15))) {
        for (int meter = 1; meter <= METERS; meter++) {
          batch.add(
              ImportCsv.quarterHour(meter, t, meter + "." + (t.getEpochSecond() / 900 % 1000)));
        }
        if (batch.size() >= 20_000) {
          catalog.table(appended.name()).append(batch, writtenAt);
          batch = new ArrayList<>();
        }
      }
      catalog.table(appended.name()).append(batch, writtenAt);
      assertThat(catalog.archive(APR1_UTC.plus(LAG), 10_000).healthy()).isTrue();
      assertThat(catalog.table(appended.name()).watermark()).isEqualTo(APR1_UTC);
      List<Object[]> expected = ImportCsv.sorted(d.cold.createTable(appended).read());
      assertThat(expected).hasSize(METERS * (31 * 96 - 4));

      Path csv = ImportCsv.write(files.resolve("march.csv"), imported, expected);
      Instant now = Instant.parse("2026-04-05T00:00:00Z");
      ImportResult result =
          catalog
              .table(imported.name())
              .importHistory(
                  ImportSource.of(csv),
                  now,
                  ImportOptions.DEFAULTS.withChunkRows(50_000).withEncodingThreads(2));

      assertThat(result.rows()).isEqualTo(expected.size());
      assertThat(result.inserted()).isEqualTo(expected.size());
      assertThat(result.duplicate()).isZero();
      assertThat(result.chunks()).isGreaterThan(1);
      // archive() above also archived the imported table's empty headroom (Feb 20 to Mar 6), so
      // the range straddles W: Feb 28 to Mar 6 goes in as corrections, the rest moves W
      assertThat(result.watermarkBefore()).isEqualTo(Instant.parse("2026-03-06T00:00:00Z"));
      assertThat(result.watermarkAfter()).isEqualTo(APR1_UTC);
      assertThat(result.rangeFrom()).isEqualTo(Instant.parse("2026-02-28T00:00:00Z"));
      assertThat(result.rangeTo()).isEqualTo(APR1_UTC);
      List<Object[]> actual = ImportCsv.sorted(d.cold.createTable(imported).read());
      assertThat(actual).hasSameSizeAs(expected);
      for (int i = 0; i < expected.size(); i++) {
        assertThat(actual.get(i)).containsExactly(expected.get(i));
      }
      assertThat(answers(catalog, imported)).isEqualTo(answers(catalog, appended));
      assertThat(d.hot.partitions().floor(imported)).isEqualTo(APR1_UTC);
      assertThat(d.hot.partitions().countRowsBelow(imported, APR1_UTC)).isZero();

      int snapshots = d.cold.createTable(imported).snapshots().size();
      ImportResult rerun =
          catalog
              .table(imported.name())
              .importHistory(
                  ImportSource.of(csv),
                  now.plus(Duration.ofDays(1)),
                  ImportOptions.DEFAULTS.withChunkRows(50_000));
      assertThat(rerun.duplicate()).isEqualTo(expected.size());
      assertThat(rerun.stored()).isZero();
      assertThat(rerun.commits()).isZero();
      assertThat(rerun.watermarkAfter()).isEqualTo(APR1_UTC);
      assertThat(d.cold.createTable(imported).snapshots()).hasSize(snapshots);

      // maintenance afterwards is healthy: the empty headroom partitions below W hold nothing
      assertThat(catalog.archive(now, 8).healthy()).isTrue();
    }
  }

  /**
   * A file sorted by balancing day, electricity (days from 23:00 or 22:00 UTC) and gas (days from
   * 05:00 or 04:00 UTC) mixed, across the spring clock change, meters in a different order each
   * day: every chunk moves W once (one commit per chunk), nothing is sent down the correction path,
   * and what is stored is every reading once.
   */
  @Test
  void aFileSortedByDayMovesWOncePerChunkWithoutCorrections() throws Exception {
    TableDefinition table = CatalogFixture.table("by_day", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(Instant.parse("2026-03-20T00:00:00Z"));
      Instant at = Instant.parse("2026-04-02T00:00:00Z");
      List<Object[]> rows = new ArrayList<>();
      for (LocalDate day = LocalDate.of(2026, 3, 24);
          day.isBefore(LocalDate.of(2026, 4, 2));
          day = day.plusDays(1)) {
        for (int i = 0; i < 12; i++) {
          int meter = (i * 5 + day.getDayOfMonth()) % 12 + 1; // another order every day
          Commodity commodity = meter % 3 == 0 ? Commodity.GAS : Commodity.STROM;
          Resolution resolution = commodity == Commodity.GAS ? Resolution.PT1H : Resolution.PT15M;
          Instant end = MeteringCalendar.dayEnd(day, commodity);
          for (Instant t = MeteringCalendar.dayStart(day, commodity);
              t.isBefore(end);
              t = t.plus(resolution.fixedLength().orElseThrow())) {
            Reading r =
                Reading.builder()
                    .malo(Workload.malo(meter))
                    .obis(commodity == Commodity.GAS ? "7-20:99.33.17" : "1-0:1.8.0")
                    .commodity(commodity)
                    .unit(org.meterstore.api.commodity.Unit.KWH)
                    .interval(t, resolution)
                    .value(meter + "." + (t.getEpochSecond() / 900 % 1000))
                    .operator(Workload.OPERATOR)
                    .build();
            rows.add(
                org.meterstore.api.table.StoredRow.of(
                    table, org.meterstore.api.reading.StoredReading.accept(r, at)));
          }
        }
      }
      ImportResult result =
          catalog
              .table(table.name())
              .importHistory(
                  ImportSource.of(csv("by-day.csv", table, rows)),
                  Instant.parse("2026-04-06T00:00:00Z"),
                  ImportOptions.DEFAULTS.withChunkRows(2_000));

      assertThat(result.inserted()).isEqualTo(rows.size());
      assertThat(result.chunks()).isGreaterThan(3);
      assertThat(result.commits()).isEqualTo(result.chunks());
      for (var snapshot : d.cold.createTable(table).snapshots()) {
        assertThat(snapshot.meterstoreOperation()).isEqualTo("archive");
      }
      // the gas day of 1 April ends at 04:00 UTC on the 2nd: W is the end of that UTC day
      assertThat(result.watermarkAfter()).isEqualTo(Instant.parse("2026-04-03T00:00:00Z"));
      List<Object[]> expected = ImportCsv.sorted(rows);
      List<Object[]> actual = ImportCsv.sorted(d.cold.createTable(table).read());
      assertThat(actual).hasSameSizeAs(expected);
      for (int i = 0; i < expected.size(); i++) {
        assertThat(actual.get(i)).containsExactly(expected.get(i));
      }
    }
  }

  @Test
  void anUnsettledRangeIsRefusedWithNothingWritten() {
    TableDefinition table = CatalogFixture.table("unsettled", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Path csv = csv("unsettled.csv", table, dayOf(Instant.parse("2026-03-10T00:00:00Z"), "1"));
      // the range ends 2026-03-11T00:00Z; at 2026-03-11T12:00Z with a 1 d lag it is not settled
      assertThatThrownBy(
              () ->
                  catalog
                      .table(table.name())
                      .importHistory(ImportSource.of(csv), Instant.parse("2026-03-11T12:00:00Z")))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("not settled")
          .hasMessageContaining("nothing was written");
      assertNothingWritten(table);
    }
  }

  @Test
  void aRangeHoldingHotRowsIsRefusedWithNothingWritten() {
    TableDefinition table = CatalogFixture.table("overlapping", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Instant day = Instant.parse("2026-03-10T00:00:00Z");
      WriteResult hot =
          catalog
              .table(table.name())
              .append(List.of(ImportCsv.quarterHour(7, day.plus(Duration.ofHours(5)), "2")), day);
      assertThat(hot.tiers()).containsExactly(Tier.HOT);
      Path csv = csv("overlapping.csv", table, dayOf(day, "1"));

      assertThatThrownBy(
              () ->
                  catalog
                      .table(table.name())
                      .importHistory(ImportSource.of(csv), Instant.parse("2026-03-20T00:00:00Z")))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("the hot tier holds 1 readings")
          .hasMessageContaining("nothing was written");
      assertNothingWritten(table);
      assertThat(d.hot.partitions().countRowsBelow(table, APR1_UTC)).isEqualTo(1);
    }
  }

  @Test
  void aBelowWatermarkImportRestatingAStoredValueIsRefusedLikeAColdCorrection() {
    TableDefinition table = CatalogFixture.table("restated", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Instant day = Instant.parse("2026-03-10T00:00:00Z");
      Instant now = Instant.parse("2026-03-20T00:00:00Z");
      ImportResult first =
          catalog
              .table(table.name())
              .importHistory(ImportSource.of(csv("first.csv", table, dayOf(day, "1"))), now);
      assertThat(first.inserted()).isEqualTo(96);
      assertThat(first.watermarkAfter()).isEqualTo(day.plus(Duration.ofDays(1)));
      int snapshots = d.cold.createTable(table).snapshots().size();

      Path restated = csv("restated.csv", table, dayOf(day, "2")); // same versions, new values
      assertThatThrownBy(
              () -> catalog.table(table.name()).importHistory(ImportSource.of(restated), now))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION))
          .hasMessageContaining("stored with another value");
      assertThat(d.cold.createTable(table).snapshots()).hasSize(snapshots);
    }
  }

  /**
   * A window imported at W is checked against itself alone only where nothing stored can decide a
   * reading: here a stored balancing-day span starts before W and ends after it, so the quarter-
   * hours imported at W under the same version overlap it and are refused, nothing written.
   */
  @Test
  void aWindowAtWOverlappingAStoredSpanThatCrossesWIsRefused() {
    TableDefinition table = CatalogFixture.table("crossing", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Instant day = Instant.parse("2026-03-10T00:00:00Z");
      Instant now = Instant.parse("2026-03-20T00:00:00Z");
      Instant dayStart = Instant.parse("2026-03-09T23:00:00Z"); // the balancing day of March 10
      Reading whole =
          Reading.builder()
              .malo(Workload.malo(7))
              .obis("1-0:1.8.0")
              .commodity(Commodity.STROM)
              .interval(dayStart, Instant.parse("2026-03-10T23:00:00Z"))
              .value("24")
              .operator(Workload.OPERATOR)
              .build();
      List<Object[]> span =
          List.<Object[]>of(
              org.meterstore.api.table.StoredRow.of(
                  table,
                  org.meterstore.api.reading.StoredReading.accept(
                      whole, Instant.parse("2026-03-15T00:00:00Z"))));
      ImportResult first =
          catalog
              .table(table.name())
              .importHistory(ImportSource.of(csv("span.csv", table, span)), now);
      assertThat(first.inserted()).isEqualTo(1);
      assertThat(first.watermarkAfter()).isEqualTo(day); // the span reaches past W
      int snapshots = d.cold.createTable(table).snapshots().size();

      Path quarters = csv("quarters.csv", table, dayOf(day, "1"));
      assertThatThrownBy(
              () ->
                  catalog
                      .table(table.name())
                      .importHistory(
                          ImportSource.of(quarters),
                          now,
                          ImportOptions.DEFAULTS.withEncodingThreads(2)))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION))
          .hasMessageContaining("spans_do_not_overlap");
      assertThat(d.cold.createTable(table).snapshots()).hasSize(snapshots);
      assertThat(catalog.table(table.name()).watermark()).isEqualTo(day);
    }
  }

  @Test
  void aBadRecordIsRefusedNamingItsLineBeforeAnythingIsWritten() throws IOException {
    TableDefinition table = CatalogFixture.table("badline", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Path csv = csv("bad.csv", table, dayOf(Instant.parse("2026-03-10T00:00:00Z"), "1"));
      List<String> lines = new ArrayList<>(java.nio.file.Files.readAllLines(csv));
      lines.set(50, lines.get(50).replaceFirst("^\\d{11}", "51238696782")); // bad check digit
      java.nio.file.Files.write(csv, lines);
      assertThatThrownBy(
              () ->
                  catalog
                      .table(table.name())
                      .importHistory(ImportSource.of(csv), Instant.parse("2026-03-20T00:00:00Z")))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("line 51")
          .hasMessageContaining("MaLo");
      assertNothingWritten(table);
    }
  }

  private static void assertNothingWritten(TableDefinition table) {
    assertThat(d.cold.createTable(table).snapshots()).isEmpty();
    assertThat(d.hot.partitions().floor(table)).isEqualTo(Instant.EPOCH);
  }

  /** One meter's 96 quarter-hours of a UTC day, as stored rows (arrival versions of Mar 15). */
  private static List<Object[]> dayOf(Instant day, String value) {
    List<Object[]> rows = new ArrayList<>();
    Instant at = Instant.parse("2026-03-15T00:00:00Z");
    for (Instant t = day;
        t.isBefore(day.plus(Duration.ofDays(1)));
        t = t.plus(Duration.ofMinutes(15))) {
      Reading r = ImportCsv.quarterHour(7, t, value);
      rows.add(
          org.meterstore.api.table.StoredRow.of(
              CatalogFixture.table("x", LAG, GRACE),
              org.meterstore.api.reading.StoredReading.accept(r, at)));
    }
    return rows;
  }

  private static Path csv(String name, TableDefinition table, List<Object[]> rows) {
    return ImportCsv.write(files.resolve(name), table, rows);
  }

  private static List<String> answers(MeterCatalog catalog, TableDefinition table)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT balancing_day, COUNT(*), SUM(\"value\"), MAX(malo_id) FROM \""
                    + table.name()
                    + "\" GROUP BY balancing_day ORDER BY balancing_day")) {
      while (rs.next()) {
        out.add(
            rs.getString(1)
                + " "
                + rs.getLong(2)
                + " "
                + rs.getBigDecimal(3)
                + " "
                + rs.getString(4));
      }
    }
    return out;
  }
}
