package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * A maintenance process killed with {@code kill -9} after its compaction wrote and re-checked the
 * new files but before it committed: the table reads exactly as before (same rows, same W, no
 * compaction snapshot), the killed process's files are unreferenced orphans, and the next cycle of
 * a fresh process compacts the month and commits it.
 */
@ExtendWith(PostgresExtension.class)
class CompactionCrashIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-02-10T00:00:00Z");
  private static final String JANUARY = "from_month=2026-01";

  /** Orphan removal compares file times with {@code now}: one later than the test's files. */
  private static final Instant AFTER_ANY_FILE = Instant.parse("2100-01-01T00:00:00Z");

  @TempDir Path warehouse;
  @TempDir Path scratch;

  @Test
  void aKilledCompactionLeavesTheTableReadableAndTheNextCycleFinishesIt(TestDatabase db)
      throws Exception {
    TableDefinition table = CatalogFixture.table("crash_compact", LAG, GRACE);
    ReferenceModel model = new ReferenceModel(table);
    Workload workload = new Workload(5, LocalDate.of(2026, 1, 26), 9, 0, 0.05, 0.0, 5);
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      d.create(List.of(table), WRITTEN);
      CompactionFixture.Split split = CompactionFixture.split(workload);
      CompactionFixture.writeHot(d, table, split.originals(), model, WRITTEN);
      Instant now =
          CompactionFixture.archiveDaily(
              catalog.maintenance().compact(false),
              table,
              LocalDate.of(2026, 1, 26),
              LocalDate.of(2026, 2, 3));
      CompactionFixture.appendCorrections(catalog, table, split.corrections(), model, 2, now);
      Instant at = now.plus(Duration.ofHours(1));
      catalog
          .maintenance()
          .compact(false)
          .runOnce(at); // archives what is due at `at`: the children only compact
      ColdTable cold = d.cold.table(table);
      Instant w = cold.watermark();
      List<String> rows = CompactionFixture.rows(cold.read());
      int januaryFiles = CompactionFixture.liveFiles(cold).get(JANUARY).size();
      assertThat(januaryFiles).isGreaterThan(2);

      ChildArgs killed =
          new ChildArgs(db, warehouse, table.name(), LAG, GRACE)
              .cycles(at, Duration.ofHours(1), 1)
              .put("compact", "true")
              .put("crashAt", FaultPoint.BEFORE_COMPACTION_COMMIT.name());
      Child crashing = Child.start(scratch.resolve("killed.log"), killed.list());
      crashing.await("REACHED " + FaultPoint.BEFORE_COMPACTION_COMMIT, 180);
      crashing.kill();

      assertThat(cold.watermark()).isEqualTo(w);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rows);
      assertThat(cold.snapshots()).noneMatch(s -> "compact".equals(s.meterstoreOperation()));
      assertThat(CompactionFixture.liveFiles(cold).get(JANUARY)).hasSize(januaryFiles);
      OrphanReport orphans = cold.findOrphanFiles(AFTER_ANY_FILE, Duration.ZERO);
      assertThat(orphans.orphans()).isNotEmpty().allMatch(f -> f.contains(JANUARY));

      ChildArgs fresh =
          new ChildArgs(db, warehouse, table.name(), LAG, GRACE)
              .cycles(at.plus(Duration.ofHours(1)), Duration.ofHours(1), 1)
              .put("compact", "true");
      try (Child completing = Child.start(scratch.resolve("fresh.log"), fresh.list())) {
        completing.await("DONE", 180);
        assertThat(completing.exit(60)).isZero();
        assertThat(completing.rows()).noneMatch(r -> r[3].equals("FAILED"));
      }
      assertThat(cold.snapshots())
          .filteredOn(s -> "compact".equals(s.meterstoreOperation()))
          .hasSize(1);
      Map<String, List<DataFile>> after = CompactionFixture.liveFiles(cold);
      assertThat(after.get(JANUARY)).hasSize(1);
      assertThat(cold.watermark()).isEqualTo(w);
      CompactionFixture.assertWatermarkNeverMovedBack(cold);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rows);
      ModelQuery.assertAgrees(catalog, table, model);
    }
  }
}
