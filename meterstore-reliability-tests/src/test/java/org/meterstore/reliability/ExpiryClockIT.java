package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Expiry measures a snapshot's age on MeterStore's clock (the {@code now} each commit was stamped
 * with), not by Iceberg's commit timestamp, which the catalog takes from the wall clock. Before,
 * with the simulated clock two years behind the wall clock nothing ever expired, and with it two
 * years ahead every snapshot but the newest went at once. Now both expire exactly the snapshots the
 * retention set on the maintenance builder names.
 */
@ExtendWith(PostgresExtension.class)
class ExpiryClockIT {
  private static final int DAYS = 4;

  @TempDir Path warehouse;

  @ParameterizedTest(name = "simulated clock {0} years from the wall clock")
  @ValueSource(ints = {-2, 2})
  void expiryKeepsExactlyWhatTheRetentionSaysOnMeterStoresClock(int years, TestDatabase db) {
    // the one wall-clock read: where Iceberg's commit timestamps will lie
    Instant wall = Instant.ofEpochMilli(System.currentTimeMillis());
    Instant base = wall.plus(Duration.ofDays(365L * years)).truncatedTo(ChronoUnit.DAYS);
    TableDefinition def =
        TableDefinition.interval(years < 0 ? "expiry_behind" : "expiry_ahead")
            .withPolicy(
                TablePolicy.DEFAULTS
                    .withPartitionHeadroom(Duration.ofDays(2))
                    .withSettlementLag(Duration.ofHours(6))
                    .withReaderGrace(Duration.ofHours(1)));
    try (TwoTiers stores =
            new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog =
            MeterCatalog.of(stores.hot, stores.cold, List.of(def), OpenTelemetry.noop())) {
      catalog.createTables(base);
      for (int day = 0; day < DAYS; day++) {
        Instant next = base.plus(Duration.ofDays(day + 1L));
        catalog
            .table(def.name())
            .append(
                HourlyDay.of(5, base.plus(Duration.ofDays(day)), "20200101000000", 0),
                next.plusSeconds(3600));
        catalog.maintenance().runOnce(next.plus(Duration.ofHours(7)));
      }
      List<SnapshotInfo> before = Tiers.coldTable(catalog, def.name()).snapshots();
      assertThat(before).hasSize(DAYS);
      assertThat(before)
          .allSatisfy(
              s ->
                  assertThat(Duration.between(s.committedAt(), wall).abs())
                      .as("Iceberg stamps commits with the wall clock")
                      .isLessThan(Duration.ofHours(1)));

      Instant now = base.plus(Duration.ofDays(DAYS)).plus(Duration.ofHours(8));
      MaintenanceOutcome outcome =
          catalog
              .maintenance()
              .expireSnapshots(true)
              .snapshotRetention(Period.ofDays(2), 1)
              .runOnce(now);

      // stamped at day 1..4 + 7h; the cutoff is day 2 + 8h: the first two are older
      List<SnapshotInfo> after = Tiers.coldTable(catalog, def.name()).snapshots();
      assertThat(outcome.row(def.name()).orElseThrow().counts().snapshotsExpired()).isEqualTo(2);
      assertThat(after)
          .extracting(SnapshotInfo::snapshotId)
          .containsExactlyElementsOf(
              before.subList(2, DAYS).stream().map(SnapshotInfo::snapshotId).toList());
      assertThat(after)
          .extracting(SnapshotInfo::stampedAt)
          .allMatch(at -> !at.isBefore(now.minus(Duration.ofDays(2))));
    }
  }
}
