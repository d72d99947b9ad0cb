package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.imports.ImportSource;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A foreign tool rolls a cold table back to an older snapshot after MeterStore archived past it and
 * reclaimed the partitions: the readings between the old and the new W are then in neither tier.
 * Before, every query answered short without an error and archival filled the gap with empty
 * windows. Now W below the hot floor is an {@code INVARIANT_VIOLATED} refusal everywhere (queries,
 * archival, routed corrections, {@code system.tables}) while writes above the floor still land, and
 * rolling the table forward restores every answer.
 */
@ExtendWith(PostgresExtension.class)
class ForeignRollbackIT {
  private static final String TABLE = "rollback";
  private static final Instant DAY1 = Instant.parse("2027-03-01T00:00:00Z");
  private static final Instant DAY2 = Instant.parse("2027-03-02T00:00:00Z");
  private static final Instant DAY3 = Instant.parse("2027-03-03T00:00:00Z");
  private static final Instant DAY4 = Instant.parse("2027-03-04T00:00:00Z");
  private static final String SECOND_VERSION = "20270303010000";
  private static final Instant SECOND_DELIVERY = DAY3.plus(Duration.ofHours(1));

  @TempDir Path warehouse;

  @Test
  void aRollbackBehindTheFloorIsRefusedEverywhereAndRollingForwardRestoresIt(TestDatabase db)
      throws Exception {
    TableDefinition def = table(TABLE);
    try (TwoTiers stores =
            new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog =
            MeterCatalog.of(stores.hot, stores.cold, List.of(def), OpenTelemetry.noop())) {
      Archived archived = archiveTwoDays(catalog, def);
      long behind = archived.behind();
      long forward = archived.forward();
      Table iceberg = Tiers.coldTable(catalog, TABLE).icebergTable();
      assertThat(catalog.table(TABLE).watermark()).isEqualTo(DAY3);
      assertThat(stores.hot.partitions().list(def))
          .as("both archived days were reclaimed from PostgreSQL")
          .noneMatch(p -> !p.upperBound().isAfter(DAY3));
      assertThat(totals(catalog)).containsExactly("48", plain(sum(DAY1).add(sum(DAY2))));

      iceberg.manageSnapshots().rollbackTo(behind).commit();

      assertThatThrownBy(() -> totals(catalog))
          .isInstanceOf(SQLException.class)
          .satisfies(
              e -> {
                MeterStoreException cause = (MeterStoreException) e.getCause();
                assertThat(cause.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED);
                assertThat(cause.isRetryable()).isFalse();
                assertThat(cause.getMessage())
                    .contains(DAY2.toString(), DAY3.toString(), Long.toString(behind))
                    .contains("roll the table forward to snapshot " + forward);
              });
      Instant now = DAY4.plus(Duration.ofHours(1));
      assertThat(health(catalog, now)).containsExactly("false", DAY3.toString());

      assertThatThrownBy(
              () ->
                  catalog
                      .table(TABLE)
                      .append(
                          List.of(reading(DAY1, 3, "20270304010000", new BigDecimal("9.5"))), now))
          .as("a correction below W would be lost when the table is rolled forward")
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED));
      assertThatThrownBy(
              () ->
                  catalog
                      .table(TABLE)
                      .append(
                          List.of(reading(DAY2, 3, "20270304010000", new BigDecimal("9.5"))), now))
          .as("a reading between W and the floor cannot be stored in either tier")
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED));
      catalog.table(TABLE).append(day(DAY3, "20270304010000"), now);

      MaintenanceOutcome halted = catalog.maintenance().runOnce(DAY4.plus(Duration.ofHours(7)));
      TableOutcome outcome = outcome(halted);
      assertThat(outcome.status()).isEqualTo(Status.FAILED);
      assertThat(outcome.failure())
          .get()
          .extracting(MeterStoreException::kind)
          .isEqualTo(ErrorKind.INVARIANT_VIOLATED);
      iceberg.refresh();
      assertThat(iceberg.currentSnapshot().snapshotId())
          .as("archival committed nothing onto the rolled-back history")
          .isEqualTo(behind);
      assertThat(catalog.table(TABLE).watermark()).isEqualTo(DAY2);
      assertThatThrownBy(() -> catalog.table(TABLE).hotWriter())
          .as("a hot writer would refuse readings by a W that went back")
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED));

      iceberg.manageSnapshots().setCurrentSnapshot(forward).commit();

      assertThat(health(catalog, now)).containsExactly("true", DAY3.toString());
      assertThat(totals(catalog))
          .containsExactly("72", plain(sum(DAY1).add(sum(DAY2)).add(sum(DAY3))));
      MaintenanceOutcome resumed = catalog.maintenance().runOnce(DAY4.plus(Duration.ofHours(8)));
      assertThat(outcome(resumed).status()).isEqualTo(Status.ARCHIVED);
      assertThat(catalog.table(TABLE).watermark()).isEqualTo(DAY4);
      assertThat(totals(catalog))
          .containsExactly("72", plain(sum(DAY1).add(sum(DAY2)).add(sum(DAY3))));
    }
  }

  @Test
  void aRollbackWhoseNewerSnapshotsAreGoneHealsWhenTheMissingReadingsAreImported(TestDatabase db)
      throws Exception {
    String table = "rollback_gone";
    TableDefinition def = table(table);
    try (TwoTiers stores =
            new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog =
            MeterCatalog.of(stores.hot, stores.cold, List.of(def), OpenTelemetry.noop())) {
      Archived archived = archiveTwoDays(catalog, def);
      long behind = archived.behind();
      long forward = archived.forward();
      Table iceberg = Tiers.coldTable(catalog, table).icebergTable();

      // the rollback, then an expiry by the same tool that removes the newer snapshot and its file
      iceberg.manageSnapshots().rollbackTo(behind).commit();
      iceberg.expireSnapshots().expireSnapshotId(forward).commit();

      assertThatThrownBy(() -> totals(catalog, table))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("no snapshot in the table's metadata carries it any more")
          .hasMessageContaining("meterstore import");

      Path backup = warehouse.resolve("lost-day.csv");
      writeCsv(backup, def, day(DAY2, SECOND_VERSION), SECOND_DELIVERY);
      Instant now = DAY4.plus(Duration.ofHours(1));
      catalog.table(table).importHistory(ImportSource.csv(backup), now);

      assertThat(catalog.table(table).watermark()).isEqualTo(DAY3);
      assertThat(health(catalog, table, now)).containsExactly("true", DAY3.toString());
      assertThat(totals(catalog, table)).containsExactly("48", plain(sum(DAY1).add(sum(DAY2))));
      MaintenanceOutcome resumed = catalog.maintenance().runOnce(now.plus(Duration.ofHours(1)));
      assertThat(resumed.failures()).isEmpty();
    }
  }

  /** The readings as an import CSV: the storage model's columns, as a backup would hold them. */
  private static void writeCsv(Path file, TableDefinition def, List<Reading> rows, Instant at)
      throws java.io.IOException {
    List<String> lines = new ArrayList<>();
    lines.add(String.join(",", def.columns().stream().map(ColumnSpec::name).toList()));
    for (Reading r : rows) {
      List<String> cells = new ArrayList<>();
      for (Object v : StoredRow.of(def, StoredReading.accept(r, at))) {
        cells.add(v == null ? "" : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      }
      lines.add(String.join(",", cells));
    }
    java.nio.file.Files.write(file, lines);
  }

  /** The snapshots of the first and the second archival commit. */
  private record Archived(long behind, long forward) {}

  private static TableDefinition table(String name) {
    return TableDefinition.interval(name)
        .withPolicy(
            TablePolicy.DEFAULTS
                .withPartitionHeadroom(Duration.ofDays(2))
                .withSettlementLag(Duration.ofHours(6))
                .withReaderGrace(Duration.ofHours(2)));
  }

  /**
   * Delivers day 1 and archives it, then day 2 and archives it, and reclaims both partitions: W is
   * day 3 and PostgreSQL holds nothing below it.
   */
  private static Archived archiveTwoDays(MeterCatalog catalog, TableDefinition def) {
    catalog.createTables(DAY1);
    catalog.table(def.name()).append(day(DAY1, "20270302010000"), DAY2.plus(Duration.ofHours(1)));
    catalog.maintenance().runOnce(DAY2.plus(Duration.ofHours(7)));
    Table iceberg = Tiers.coldTable(catalog, def.name()).icebergTable();
    iceberg.refresh();
    long behind = iceberg.currentSnapshot().snapshotId();
    catalog.table(def.name()).append(day(DAY2, SECOND_VERSION), SECOND_DELIVERY);
    catalog.maintenance().runOnce(DAY3.plus(Duration.ofHours(7)));
    catalog.maintenance().runOnce(DAY3.plus(Duration.ofHours(10)));
    iceberg.refresh();
    return new Archived(behind, iceberg.currentSnapshot().snapshotId());
  }

  private static TableOutcome outcome(MaintenanceOutcome outcome) {
    return outcome.row(TABLE).orElseThrow();
  }

  private static List<String> health(MeterCatalog catalog, Instant now) throws SQLException {
    return health(catalog, TABLE, now);
  }

  private static List<String> health(MeterCatalog catalog, String table, Instant now)
      throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT healthy, committed_watermark FROM \"system\".\"tables\" WHERE \"table\" = '"
                    + table
                    + "'")) {
      assertThat(rs.next()).isTrue();
      Timestamp floor = rs.getTimestamp(2, java.util.Calendar.getInstance(utc()));
      return List.of(Boolean.toString(rs.getBoolean(1)), floor.toInstant().toString());
    }
  }

  private static java.util.TimeZone utc() {
    return java.util.TimeZone.getTimeZone("UTC");
  }

  private static List<String> totals(MeterCatalog catalog) throws SQLException {
    return totals(catalog, TABLE);
  }

  private static List<String> totals(MeterCatalog catalog, String table) throws SQLException {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM \"" + table + "\"")) {
      rs.next();
      return List.of(Long.toString(rs.getLong(1)), plain(rs.getBigDecimal(2)));
    }
  }

  private static BigDecimal sum(Instant day) {
    return day(day, "20270101000000").stream()
        .map(Reading::value)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  private static String plain(BigDecimal d) {
    return d.stripTrailingZeros().toPlainString();
  }

  /** Day {@code start}'s readings of meter 4, with values that differ from day to day. */
  private static List<Reading> day(Instant start, String version) {
    return HourlyDay.of(4, start, version, (int) (start.getEpochSecond() / 86_400 % 7));
  }

  private static Reading reading(Instant day, int hour, String version, BigDecimal value) {
    return HourlyDay.reading(4, day.plus(Duration.ofHours(hour)), version, value);
  }
}
