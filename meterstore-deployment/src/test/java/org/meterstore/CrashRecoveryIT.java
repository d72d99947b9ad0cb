package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.testing.Tally;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * A maintenance process is killed with {@code kill -9} at each step boundary of an archival run
 * (every {@link FaultPoint}); a fresh process then completes the work: every reading ends up in
 * exactly one tier (nothing lost, nothing doubled), SQL answers what the reference model holds to
 * the last decimal, every window is committed once, every archived partition is reclaimed, no hot
 * row lies below W, and the deliveries written before the crash, delivered again, are all reported
 * {@code DUPLICATE}.
 */
@ExtendWith(PostgresExtension.class)
class CrashRecoveryIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-20T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");
  private static final Instant FINAL_W = Instant.parse("2026-03-05T00:00:00Z");

  @TempDir static Path warehouse;
  @TempDir static Path scratch;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = FaultPoint.class,
      mode = EnumSource.Mode.EXCLUDE,
      names = "BEFORE_COMPACTION_COMMIT") // compaction's crash: CompactionCrashIT
  void aFreshProcessCompletesTheWorkOfOneKilledAtEachStep(FaultPoint point, TestDatabase db)
      throws Exception {
    String name = "crash_" + point.name().toLowerCase(Locale.ROOT);
    TableDefinition table = CatalogFixture.table(name, LAG, GRACE);
    d.create(List.of(table), WRITTEN);
    ReferenceModel model = new ReferenceModel(table);
    Workload workload = new Workload(5, LocalDate.of(2026, 3, 2), 3, 0, 0.05, 0.05, 3);
    d.write(table, workload, model, WRITTEN);
    ChildArgs args =
        new ChildArgs(db, warehouse, name, LAG, GRACE).cycles(NOW, Duration.ofHours(2), 2);

    Child crashing =
        Child.start(
            scratch.resolve(name + "-killed.log"), args.put("crashAt", point.name()).list());
    String reached = crashing.await("REACHED " + point, 180);
    crashing.kill();
    assertLeftBehind(point, table, reached.split(" ")[3]);

    ChildArgs fresh =
        new ChildArgs(db, warehouse, name, LAG, GRACE).cycles(NOW, Duration.ofHours(2), 2);
    try (Child completing = Child.start(scratch.resolve(name + "-fresh.log"), fresh.list())) {
      completing.await("DONE", 180);
      assertThat(completing.exit(60)).isZero();
      assertThat(completing.rows()).allMatch(r -> r[5].equals("0")).hasSize(2);
      assertThat(completing.rows())
          .noneMatch(r -> r[3].equals("FAILED") || r[3].equals("QUARANTINED"));
    }

    ColdTable cold = d.cold.createTable(table);
    assertThat(cold.watermark()).isEqualTo(FINAL_W);
    List<SnapshotInfo> archives =
        cold.snapshots().stream().filter(s -> "archive".equals(s.meterstoreOperation())).toList();
    assertThat(archives.stream().map(SnapshotInfo::watermark).distinct().count())
        .isEqualTo(archives.size());
    ArchiveCommits.assertEachWindowOnce(cold, FINAL_W);
    assertThat(d.coldRows(table)).isEqualTo(model.versions().size());
    assertThat(d.tiers(table)).isEqualTo(Tally.expected(table, model));
    assertThat(d.hot.partitions().countRowsBelow(table, FINAL_W)).isZero();
    assertThat(d.hot.partitions().list(table)).noneMatch(p -> !p.upperBound().isAfter(FINAL_W));
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      assertRedeliveriesAreDuplicates(catalog, table, workload);
      ModelQuery.assertAgrees(catalog, table, model);
    }
  }

  /**
   * The deliveries written before the crash, retried in the batches {@code d.write} made: every
   * reading is archived by now, so each one is a redelivery in the cold tier.
   */
  private static void assertRedeliveriesAreDuplicates(
      MeterCatalog catalog, TableDefinition table, Workload workload) {
    List<Reading> batch = new ArrayList<>();
    List<Workload.Delivery> deliveries = workload.deliveries();
    for (int i = 0; i < deliveries.size(); i++) {
      batch.addAll(deliveries.get(i).readings());
      if ((i + 1) % 10 == 0 || i + 1 == deliveries.size()) {
        WriteResult r = catalog.table(table.name()).append(batch, WRITTEN);
        assertThat(r.outcomes()).hasSize(batch.size()).containsOnly(WriteOutcome.DUPLICATE);
        assertThat(r.tiers()).containsOnly(Tier.COLD);
        batch = new ArrayList<>();
      }
    }
  }

  /** What the killed process left: the state each step boundary promises. */
  private static void assertLeftBehind(FaultPoint point, TableDefinition table, String partition) {
    Instant w = d.cold.createTable(table).watermark();
    if (point == FaultPoint.AFTER_LEASE) { // the first run of the first cycle: nothing done yet
      assertThat(w).isEqualTo(Instant.EPOCH);
      assertThat(d.hot.partitions().list(table))
          .allMatch(p -> p.state() == PartitionState.ATTACHED);
      return;
    }
    PartitionInfo p =
        d.hot.partitions().list(table).stream()
            .filter(x -> x.name().equals(partition))
            .findFirst()
            .orElseThrow();
    assertThat(p.state()).isEqualTo(PartitionState.DETACHED);
    switch (point) {
      case AFTER_DETACH, BETWEEN_CHUNKS -> assertThat(p.lowerBound()).isAfterOrEqualTo(w);
      case AFTER_COLD_COMMIT, AFTER_COMMIT -> assertThat(p.upperBound()).isEqualTo(w);
      default -> assertThat(w).isEqualTo(FINAL_W);
    }
  }
}
