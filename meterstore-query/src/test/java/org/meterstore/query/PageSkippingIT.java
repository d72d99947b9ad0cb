package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * One location's six days from a cold file that holds six days of quarter-hours of 300 locations in
 * one row group (172,800 rows; pages of 2,000 rows, the fewest MeterStore writes): the columnar
 * reader decodes only the pages that may hold the location (counter {@code
 * meterstore.query.cold.rows_decoded}), and the answer is the one of a scan whose filter cannot be
 * pushed and so reads the whole file.
 */
@ExtendWith(PostgresExtension.class)
class PageSkippingIT {
  private static final Instant FROM = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant TO = Instant.parse("2026-01-07T00:00:00Z");
  private static final int LOCATIONS = 300;

  @TempDir Path warehouse;

  @Test
  void oneLocationsReadingsDecodeTheLocationsPagesOnly(TestDatabase db) throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    TableDefinition def = TableDefinition.interval("pages");
    Instant now = Instant.parse("2026-03-01T00:00:00Z");
    List<Reading> readings = quarterHours();
    try (HotStore hot =
            HotStore.open(
                db.dataSource(), HotSettings.DEFAULTS, io.opentelemetry.api.OpenTelemetry.noop());
        ColdStore cold =
            ColdStore.open(
                TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse)
                    .withChunkRows(1_000_000))) {
      hot.createTables(List.of(def), now);
      cold.createTable(def)
          .archive(
              new ArchiveRequest(FROM, TO, now, 1),
              readings.stream().map(r -> StoredRow.of(def, StoredReading.accept(r, now))).toList());
      assertThat(cold.table(def).view(SnapshotSelector.current()).dataFiles()).hasSize(1);
      try (QueryEngine engine =
              QueryEngine.builder()
                  .tables(List.of(def))
                  .hot(hot, db.dataSource())
                  .cold(cold)
                  .clock(new MutableClock(now))
                  .openTelemetry(otel)
                  .build();
          Connection c = engine.connection()) {
        String malo = Workload.malo(LOCATIONS / 2);
        String columns = "SELECT \"from\", \"value\", version, obis_code FROM pages WHERE ";
        String range =
            " AND \"from\" >= TIMESTAMP '2026-01-01 00:00:00'"
                + " AND \"from\" < TIMESTAMP '2026-01-07 00:00:00' ORDER BY \"from\"";

        long before = decoded(metrics);
        List<String> pushed = Fixtures.query(c, columns + "malo_id = '" + malo + "'" + range);
        long pushedDecoded = decoded(metrics) - before;
        // a filter Calcite keeps above the scan: the scan reads every row of the file
        List<String> whole = Fixtures.query(c, columns + "malo_id || '' = '" + malo + "'" + range);
        long wholeDecoded = decoded(metrics) - before - pushedDecoded;

        assertThat(pushed).hasSize(6 * 96).isEqualTo(whole);
        assertThat(wholeDecoded).isEqualTo(readings.size());
        assertThat(pushedDecoded).isPositive().isLessThanOrEqualTo(8L * pushed.size());
      }
    }
  }

  /** Quarter-hours of locations 1..300 in {@code [FROM, TO)}, time by time. */
  private static List<Reading> quarterHours() {
    List<Reading> out = new java.util.ArrayList<>();
    for (Instant t = FROM; t.isBefore(TO); t = t.plus(java.time.Duration.ofMinutes(15))) {
      for (int m = 1; m <= LOCATIONS; m++) {
        out.add(
            Fixtures.reading(m, t, m + "." + (t.getEpochSecond() / 900 % 100), "20260205000000"));
      }
    }
    return out;
  }

  private static long decoded(InMemoryMetricReader metrics) {
    return metrics.collectAllMetrics().stream()
        .filter(m -> m.getName().equals("meterstore.query.cold.rows_decoded"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> "pages".equals(p.getAttributes().get(AttributeKey.stringKey("table"))))
        .mapToLong(p -> p.getValue())
        .sum();
  }
}
