package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * State pins for readers outside MeterStore (issue #34 item 1): while a pin lives, archival moves
 * no W and expiry keeps the pinned snapshot; once it lapses (time is a parameter) or is released,
 * archival catches up. A pin that cannot be served, or one taken while archival holds the lease, is
 * refused and writes nothing.
 */
@ExtendWith(PostgresExtension.class)
class StatePinIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant WRITTEN = Instant.parse("2026-04-20T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");

  @TempDir static Path warehouse;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  private static TableDefinition table(String name, int days) {
    return d.withDaysOfReadings(name, days, LAG, WRITTEN);
  }

  @Test
  void archivalWaitsWhileAPinLivesAndCatchesUpWhenItLapses() throws SQLException {
    TableDefinition def = table("gehalten", 4);
    try (MeterCatalog catalog = d.catalog(List.of(def), OpenTelemetry.noop())) {
      MeterTable table = catalog.table("gehalten");
      TableOutcome first =
          catalog
              .maintenance()
              .runOnce(NOW.minus(Duration.ofDays(2)))
              .row("gehalten")
              .orElseThrow();
      assertThat(first.status()).isEqualTo(Status.ARCHIVED);
      Instant w = table.watermark();
      long snapshot = d.cold.createTable(def).icebergTable().currentSnapshot().snapshotId();

      StatePin pin = table.pins().pin(Duration.ofDays(7), "spark settlement job", NOW);

      assertThat(pin.watermark()).isEqualTo(w);
      assertThat(pin.snapshotId()).isEqualTo(snapshot);
      assertThat(pin.holder()).isEqualTo("spark settlement job");
      assertThat(pin.expiresAt()).isEqualTo(NOW.plus(Duration.ofDays(7)));
      assertThat(table.pins().list(NOW)).containsExactly(pin);
      assertPinnedInSql(catalog, pin);

      // a late correction makes S an older snapshot; due windows, expiry of everything but the
      // newest snapshot: the pinned state stays as it was
      table.append(List.of(correction(w.minus(Duration.ofHours(6)))), NOW);
      assertThat(d.cold.createTable(def).icebergTable().currentSnapshot().snapshotId())
          .isNotEqualTo(snapshot);
      TableOutcome held =
          catalog
              .maintenance()
              .expireSnapshots(true)
              .snapshotRetention(Period.ofDays(1), 1)
              .runOnce(NOW.plus(Duration.ofDays(1)))
              .row("gehalten")
              .orElseThrow();
      assertThat(held.status()).isEqualTo(Status.HELD);
      assertThat(held.counts().snapshotsExpired()).isPositive();
      assertThat(held.counts().windowsArchived()).isZero();
      assertThat(table.watermark()).isEqualTo(w);
      assertThat(d.cold.createTable(def).icebergTable().snapshot(snapshot)).isNotNull();
      assertThat(d.hot.partitions().list(def))
          .filteredOn(p -> p.upperBound().isAfter(w))
          .allMatch(PartitionInfo::isAttached);

      // the pin lapses on its own: the next cycle archives
      Instant later = NOW.plus(Duration.ofDays(8));
      assertThat(table.pins().list(later)).isEmpty();
      TableOutcome resumed = catalog.maintenance().runOnce(later).row("gehalten").orElseThrow();
      assertThat(resumed.status()).isEqualTo(Status.ARCHIVED);
      assertThat(table.watermark()).isAfter(w);
    }
  }

  /**
   * {@code "system".pins} shows the pin with the federated query of its state; tables counts it.
   */
  private static void assertPinnedInSql(MeterCatalog catalog, StatePin pin) throws SQLException {
    catalog.refreshSystemTables(NOW);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement()) {
      try (ResultSet rs =
          s.executeQuery(
              "SELECT \"id\", \"holder\", \"snapshot_id\", \"watermark\", \"spark_sql\","
                  + " \"trino_sql\" FROM \"system\".\"pins\"")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(pin.id());
        assertThat(rs.getString(2)).isEqualTo(pin.holder());
        assertThat(rs.getLong(3)).isEqualTo(pin.snapshotId());
        assertThat(rs.getTimestamp(4).toInstant()).isEqualTo(pin.watermark());
        assertThat(rs.getString(5)).contains("VERSION AS OF " + pin.snapshotId());
        assertThat(rs.getString(6)).contains("FOR VERSION AS OF " + pin.snapshotId());
        assertThat(rs.next()).isFalse();
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT \"servable\", \"unservable_reason\" FROM \"system\".\"seam\" WHERE"
                  + " \"table\" = '"
                  + pin.table()
                  + "'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isTrue();
        assertThat(rs.getString(2)).isNull();
      }
      try (ResultSet rs =
          s.executeQuery(
              "SELECT \"state_pins\" FROM \"system\".\"tables\" WHERE \"table\" = '"
                  + pin.table()
                  + "'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1);
      }
    }
  }

  /** One quarter-hour correction of the first meter at {@code from}. */
  private static Reading correction(Instant from) {
    return Reading.builder()
        .malo(Workload.malo(0))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, Resolution.PT15M)
        .value("9.5")
        .version("20260306050000")
        .operator(Workload.OPERATOR)
        .build();
  }

  @Test
  void aReleasedPinNoLongerHoldsArchival() {
    TableDefinition def = table("freigabe", 3);
    try (MeterCatalog catalog = d.catalog(List.of(def), OpenTelemetry.noop())) {
      MeterTable table = catalog.table("freigabe");
      // the longest holder a pin takes (its lease label is cut to the lease's limit)
      String holder = "trino report " + "x".repeat(187);
      StatePin pin = table.pins().pin(Duration.ofHours(6), holder, NOW);
      assertThat(pin.holder()).hasSize(200);
      assertThat(pin.snapshotId()).isNull();
      assertThat(pin.watermark()).isEqualTo(Instant.EPOCH);
      assertThat(catalog.maintenance().runOnce(NOW).row("freigabe").orElseThrow().status())
          .isEqualTo(Status.HELD);

      table.pins().release(pin.id());
      table.pins().release(pin.id());

      assertThat(table.pins().list(NOW)).isEmpty();
      assertThat(catalog.maintenance().runOnce(NOW).row("freigabe").orElseThrow().status())
          .isEqualTo(Status.ARCHIVED);
    }
  }

  @Test
  void aPinIsRefusedAndWritesNothingWhenItCannotBeServedOrArchivalRuns() throws SQLException {
    TableDefinition def = table("verweigert", 3);
    try (MeterCatalog catalog = d.catalog(List.of(def), OpenTelemetry.noop())) {
      MeterTable table = catalog.table("verweigert");
      assertThatThrownBy(() -> table.pins().pin(Duration.ZERO, "job", NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT));
      assertThatThrownBy(() -> table.pins().pin(Duration.ofDays(8), "job", NOW))
          .isInstanceOf(MeterStoreException.class);
      assertThatThrownBy(() -> table.pins().pin(Duration.ofHours(1), " ", NOW))
          .isInstanceOf(MeterStoreException.class);

      Optional<ArchivalLease> lease = d.hot.archival().tryLease(def, "an archival run", NOW);
      try (ArchivalLease held = lease.orElseThrow()) {
        assertThatThrownBy(() -> table.pins().pin(Duration.ofHours(1), "job", NOW))
            .isInstanceOfSatisfying(
                MeterStoreException.class,
                e -> {
                  assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
                  assertThat(e.isRetryable()).isTrue();
                });
        assertThat(held.isHeld()).isTrue();
      }

      // a pending detach above W: the hot parent would not show the partition's rows
      PartitionInfo first = d.hot.partitions().list(def).get(0);
      d.hot.partitions().detach(def, first.name(), DetachMode.PLAIN);
      assertThatThrownBy(() -> table.pins().pin(Duration.ofHours(1), "job", NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining(first.name());
      assertThat(table.pins().list(NOW)).isEmpty();
      // and the seam says so in a column a job can check, without a hand-run catalog query
      catalog.refreshSystemTables(NOW);
      try (Connection c = catalog.connection();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT \"servable\", \"unservable_reason\" FROM \"system\".\"seam\""
                      + " WHERE \"table\" = 'verweigert'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean(1)).isFalse();
        assertThat(rs.getString(2)).contains(first.name(), "DETACHED");
      }
    }
  }
}
