package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Period;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Snapshot expiry that runs before a detached partition's reader grace is over must not take the
 * archival commit that partition's reclamation re-checks its digest against: otherwise the
 * partition is never dropped (a stranded partition below W, silently). Found by {@link
 * HistoryPropertyIT} (seed 19: expiry with a short retention, the simulated clock ahead of the wall
 * clock Iceberg stamps commits with).
 */
@ExtendWith(PostgresExtension.class)
class ExpiryBeforeReclaimIT {
  @TempDir Path warehouse;

  @Test
  void aPartitionWhoseArchivalSnapshotExpiryCouldTakeIsStillReclaimedAfterItsGrace(
      TestDatabase db) {
    TableDefinition def =
        TableDefinition.interval("expiry_reclaim")
            .withPolicy(
                TablePolicy.DEFAULTS
                    .withPartitionHeadroom(Duration.ofDays(2))
                    .withSettlementLag(Duration.ofHours(6))
                    .withReaderGrace(Duration.ofHours(2))
                    .withSnapshotRetention(Period.ZERO, 1));
    Instant delivered = Instant.parse("2027-06-11T01:00:00Z");
    try (TwoTiers stores =
            new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog =
            MeterCatalog.of(stores.hot, stores.cold, List.of(def), OpenTelemetry.noop())) {
      catalog.createTables(delivered.minus(Duration.ofDays(2)));
      catalog.table(def.name()).append(day(LocalDate.of(2027, 6, 9)), delivered);
      catalog.table(def.name()).append(day(LocalDate.of(2027, 6, 10)), delivered);

      Instant first = Instant.parse("2027-06-11T07:00:00Z");
      MaintenanceOutcome archived =
          catalog.maintenance().maxWindowsPerCycle(5).expireSnapshots(true).runOnce(first);
      assertThat(archived.windowsArchived()).isGreaterThanOrEqualTo(2);
      assertThat(catalog.table(def.name()).watermark())
          .isEqualTo(Instant.parse("2027-06-11T00:00:00Z"));

      Instant afterGrace = first.plus(Duration.ofHours(3));
      MaintenanceOutcome reclaimed =
          catalog.maintenance().expireSnapshots(true).runOnce(afterGrace);
      assertThat(reclaimed.failures()).isEmpty();
      assertThat(stores.hot.partitions().list(def))
          .as("every archived partition is reclaimed once its grace is over")
          .noneMatch(p -> !p.upperBound().isAfter(Instant.parse("2027-06-11T00:00:00Z")))
          .extracting(PartitionInfo::name)
          .isNotEmpty();
    }
  }

  private static List<Reading> day(LocalDate day) {
    return HourlyDay.of(3, MeteringCalendar.dayStart(day, Commodity.STROM), "20270611010000", 0);
  }
}
