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
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * The maintenance loop compacts by default (issue #32): archived one day per cycle across the end
 * of January, a table maintained with the builder's defaults holds January in one file once W
 * passes 1 February, and answers as before; one maintained with {@code compact(false)} keeps a file
 * per archived day.
 */
@ExtendWith(PostgresExtension.class)
class CompactionDefaultIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-10T00:00:00Z");
  private static final String JANUARY = "from_month=2026-01";

  @TempDir Path warehouse;

  @Test
  void theDefaultLoopLeavesAClosedMonthInOneFileAndCompactFalseLeavesItsDays(TestDatabase db)
      throws Exception {
    TableDefinition byDefault = CatalogFixture.table("by_default", LAG, GRACE);
    TableDefinition leftAlone = CatalogFixture.table("left_alone", LAG, GRACE);
    Workload workload = new Workload(6, LocalDate.of(2026, 1, 20), 16, 0, 0.0, 0.0, 5);
    ReferenceModel model = new ReferenceModel(byDefault);
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog defaults = d.catalog(List.of(byDefault), OpenTelemetry.noop());
        MeterCatalog off = d.catalog(List.of(leftAlone), OpenTelemetry.noop())) {
      d.create(List.of(byDefault, leftAlone), WRITTEN);
      CompactionFixture.Split split = CompactionFixture.split(workload);
      CompactionFixture.writeHot(d, byDefault, split.originals(), model, WRITTEN);
      CompactionFixture.writeHot(
          d, leftAlone, split.originals(), new ReferenceModel(leftAlone), WRITTEN);

      Instant now =
          CompactionFixture.archiveDaily(
              defaults.maintenance(),
              byDefault,
              LocalDate.of(2026, 1, 20),
              LocalDate.of(2026, 2, 5));
      CompactionFixture.archiveDaily(
          off.maintenance().compact(false),
          leftAlone,
          LocalDate.of(2026, 1, 20),
          LocalDate.of(2026, 2, 5));

      ColdTable compacted = d.cold.table(byDefault);
      Map<String, List<DataFile>> files = CompactionFixture.liveFiles(compacted);
      assertThat(files.get(JANUARY)).hasSize(1);
      assertThat(files.get("from_month=2026-02")).hasSizeGreaterThan(1); // the month of W
      assertThat(CompactionFixture.liveFiles(d.cold.table(leftAlone)).get(JANUARY))
          .hasSizeGreaterThan(10);
      CompactionFixture.assertWatermarkNeverMovedBack(compacted);
      ModelQuery.assertAgrees(defaults, byDefault, model);

      // the cycle that compacted reported it; later cycles find nothing more to rewrite
      CompactionReport again =
          defaults
              .maintenance()
              .runOnce(now.plus(Duration.ofMinutes(10)))
              .row(byDefault.name())
              .orElseThrow()
              .counts()
              .compaction();
      assertThat(again.filesRewritten()).isZero();
    }
  }
}
