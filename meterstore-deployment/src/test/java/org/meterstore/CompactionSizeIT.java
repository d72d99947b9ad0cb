package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
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
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The small-deployment check of compaction: {@value #METERS} meters' quarter-hours from 2 January
 * 2026, archived one day per cycle (one file per day), with 3 % of the readings corrected later in
 * four late-correction commits (a small file per month and commit). After one cycle with
 * compaction, the months wholly below W hold one file each (no file smaller than its month's data
 * allow) of at most 6 bytes per reading on disk (whole files); the month in progress is left as it
 * was. With the delta encodings of issue #20 a month of 125 meters is about 0.86 MB (2.3 bytes per
 * reading), so a closed month reaches 1 MB from about 146 meters; fewer meters end in one smaller
 * file, the least the data allow. Every answer (SQL against the reference model, the rows of the
 * pre-compaction snapshot) is unchanged, W is unchanged, and the outcome and the metrics report the
 * rewrite.
 */
@ExtendWith(PostgresExtension.class)
class CompactionSizeIT {
  static final int METERS = 125;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionSizeIT.class);
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-10T00:00:00Z");

  /** The Berlin day 2 January starts at 2026-01-01T23:00Z: every reading lies in a UTC month. */
  private static final LocalDate FIRST_DAY = LocalDate.of(2026, 1, 2);

  @TempDir Path warehouse;

  @Test
  void eachClosedMonthEndsInOneFileOfAtMostSixBytesPerReading(TestDatabase db) throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    int meters = Integer.getInteger("compaction.meters", METERS);
    TableDefinition table = CatalogFixture.table("small", LAG, GRACE);
    Workload workload = new Workload(meters, FIRST_DAY, 33, 0, 0.03, 0.01, 11);
    ReferenceModel model = new ReferenceModel(table);
    try (CatalogFixture d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), otel);
        MeterCatalog catalog = d.catalog(List.of(table), otel)) {
      d.create(List.of(table), WRITTEN);
      CompactionFixture.Split split = CompactionFixture.split(workload);
      CompactionFixture.writeHot(d, table, split.originals(), model, WRITTEN);
      MaintenanceBuilder loop = catalog.maintenance().compact(false); // compacted below, once
      Instant now =
          CompactionFixture.archiveDaily(loop, table, FIRST_DAY, LocalDate.of(2026, 2, 3));
      CompactionFixture.appendCorrections(catalog, table, split.corrections(), model, 4, now);
      ColdTable cold = d.cold.table(table);
      Instant w = cold.watermark();
      long before = cold.icebergTable().currentSnapshot().snapshotId();
      List<String> rowsBefore = CompactionFixture.rows(cold.read());
      Map<String, List<DataFile>> filesBefore = CompactionFixture.liveFiles(cold);
      report("before", filesBefore);
      Map<String, Long> resolutionBefore = januaryScan(catalog, metrics);

      TableOutcome row =
          loop.compact(true).runOnce(now.plusSeconds(600)).row(table.name()).orElseThrow();
      assertThat(row.failure()).isEmpty();
      CompactionReport c = row.counts().compaction();
      LOG.info("compaction outcome: {}", c);

      Map<String, List<DataFile>> after = CompactionFixture.liveFiles(cold);
      report("after", after);
      Map<String, Long> resolutionAfter = januaryScan(catalog, metrics);
      LOG.info(
          "MEASURE January rows read by resolution: before {}, after {}",
          resolutionBefore,
          resolutionAfter);
      long january = after.get("from_month=2026-01").get(0).recordCount();
      assertThat(resolutionAfter.values().stream().mapToLong(Long::longValue).sum())
          .isEqualTo(january);
      // one file of many versions: compaction resolves the month (see operations.md)
      assertThat(resolutionAfter).containsEntry("resolved", january);
      assertThat(cold.watermark()).isEqualTo(w);
      CompactionFixture.assertWatermarkNeverMovedBack(cold);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rowsBefore);
      assertThat(CompactionFixture.rows(cold.readSnapshot(before))).isEqualTo(rowsBefore);
      ModelQuery.assertAgrees(catalog, table, model);

      String inProgress = "from_month=2026-02";
      assertThat(locations(after.get(inProgress)))
          .isEqualTo(locations(filesBefore.get(inProgress)));
      int closedBefore = 0;
      for (Map.Entry<String, List<DataFile>> e : after.entrySet()) {
        if (e.getKey().equals(inProgress)) {
          continue;
        }
        closedBefore += filesBefore.get(e.getKey()).size();
        assertThat(e.getValue()).as("files of %s", e.getKey()).hasSize(1);
        DataFile f = e.getValue().get(0);
        LOG.info("{} after compaction: one file of {} bytes", e.getKey(), f.fileSizeInBytes());
        assertThat((double) f.fileSizeInBytes() / f.recordCount())
            .as("bytes per reading in %s", e.getKey())
            .isLessThanOrEqualTo(6.0);
        assertThat(f.sortOrderId()).isEqualTo(cold.icebergTable().sortOrder().orderId());
      }
      assertThat(c.partitionsCompacted()).isEqualTo(1);
      assertThat(c.filesRewritten()).isEqualTo(closedBefore);
      assertThat(c.filesWritten()).isEqualTo(1);
      // bytes: about equal (measured +2.7 % for January here): the gain is 35 files -> 1
      assertThat(c.bytesBefore()).isEqualTo(sizes(filesBefore.get("from_month=2026-01")));
      assertThat(c.bytesAfter()).isEqualTo(sizes(after.get("from_month=2026-01")));

      Attributes small = Attributes.of(AttributeKey.stringKey("table"), "small");
      assertThat(sum(metrics, "meterstore.compaction.files_rewritten", small))
          .isEqualTo(c.filesRewritten());
      assertThat(sum(metrics, "meterstore.compaction.bytes_written", small))
          .isEqualTo(c.bytesAfter());

      TableOutcome again = loop.runOnce(now.plusSeconds(1200)).row(table.name()).orElseThrow();
      assertThat(again.counts().compaction()).isEqualTo(CompactionReport.NONE);
    }
  }

  /**
   * Cold rows a query over January's current rows read, by the {@code resolution} attribute of
   * {@code meterstore.query.cold.rows} (the difference the query made).
   */
  private static Map<String, Long> januaryScan(MeterCatalog catalog, InMemoryMetricReader reader)
      throws java.sql.SQLException {
    Map<String, Long> before = coldRows(reader);
    try (java.sql.Connection c = catalog.connection();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*), SUM(\"value\") FROM \"small\" WHERE \"from\" < TIMESTAMP"
                    + " '2026-02-01 00:00:00'")) {
      assertThat(rs.next()).isTrue();
    }
    Map<String, Long> out = new java.util.TreeMap<>();
    coldRows(reader)
        .forEach(
            (k, v) -> {
              long d = v - before.getOrDefault(k, 0L);
              if (d > 0) {
                out.put(k, d);
              }
            });
    return out;
  }

  private static Map<String, Long> coldRows(InMemoryMetricReader reader) {
    Map<String, Long> out = new java.util.TreeMap<>();
    reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals("meterstore.query.cold.rows"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .forEach(
            p ->
                out.merge(
                    p.getAttributes().get(AttributeKey.stringKey("resolution")),
                    p.getValue(),
                    Long::sum));
    return out;
  }

  private static long sizes(List<DataFile> files) {
    return files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
  }

  private static java.util.Set<String> locations(List<DataFile> files) {
    return files.stream().map(DataFile::location).collect(java.util.stream.Collectors.toSet());
  }

  private static void report(String when, Map<String, List<DataFile>> files) {
    long bytes = 0;
    long rows = 0;
    for (Map.Entry<String, List<DataFile>> e : files.entrySet()) {
      long b = e.getValue().stream().mapToLong(DataFile::fileSizeInBytes).sum();
      long r = e.getValue().stream().mapToLong(DataFile::recordCount).sum();
      long smallest = e.getValue().stream().mapToLong(DataFile::fileSizeInBytes).min().orElse(0);
      bytes += b;
      rows += r;
      LOG.info(
          "MEASURE {} {}: {} files, {} bytes, {} readings, {} bytes/reading, smallest {} bytes",
          when,
          e.getKey(),
          e.getValue().size(),
          b,
          r,
          String.format("%.2f", (double) b / r),
          smallest);
    }
    LOG.info(
        "MEASURE {} total: {} bytes, {} readings, {} bytes/reading",
        when,
        bytes,
        rows,
        String.format("%.2f", (double) bytes / rows));
  }

  private static long sum(InMemoryMetricReader reader, String name, Attributes attributes) {
    return reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals(name))
        .map(MetricData::getLongSumData)
        .flatMap(s -> s.getPoints().stream())
        .filter(p -> p.getAttributes().equals(attributes))
        .mapToLong(p -> p.getValue())
        .sum();
  }
}
