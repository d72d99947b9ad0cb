package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.hourly;
import static org.meterstore.query.Fixtures.reading;
import static org.meterstore.query.Fixtures.scalar;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Merge elision: archived days with one version per file skip resolution; a late correction
 * overlapping an archived day turns it off for scans that read that day. The query metrics record
 * planning, scans per tier and the elided ratio.
 */
@ExtendWith(PostgresExtension.class)
class MergeElisionIT {
  private static final String COLD_DAY1 =
      "SELECT count(*), sum(\"value\") FROM lastgang WHERE \"from\" < TIMESTAMP '2026-01-02 00:00:00'";
  private static final String COLD_DAY2 =
      "SELECT count(*) FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00' AND \"from\""
          + " < TIMESTAMP '2026-01-03 00:00:00'";

  @TempDir Path warehouse;

  @Test
  void aLateCorrectionTurnsElisionOffForTheDayItOverlaps(TestDatabase db) throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    TableDefinition def = TableDefinition.interval("lastgang");
    Instant now = Instant.parse("2026-02-01T00:00:00Z");
    try (QueryFixture d = new QueryFixture(db, warehouse, now, List.of(def), otel)) {
      d.hot.write(def, hourly(2, DAY1, DAY2, "20260105000000"), now);
      d.hot.write(def, hourly(2, DAY2, DAY3, "20260106000000"), now);
      d.hot.write(def, hourly(2, DAY3, DAY3.plusSeconds(86_400), "20260107000000"), now);
      d.archive(def, DAY1, DAY2, true);
      d.archive(def, DAY2, DAY3, true);
      try (Connection c = d.catalog.connection()) {
        assertThat(Fixtures.explain(c, COLD_DAY1)).contains("resolution=[elided (");
        assertThat(Fixtures.explain(c, COLD_DAY2)).contains("resolution=[elided (");
        String before = scalar(c, COLD_DAY1);
        assertThat(before).startsWith("48|");

        d.coldTable(def)
            .appendCorrections(
                List.of(StoredReading.accept(reading(1, DAY1, "100", "20260110000000"), now)), now);

        assertThat(Fixtures.explain(c, COLD_DAY1))
            .contains("resolution=[resolved (files of different versions overlap in from)");
        assertThat(Fixtures.explain(c, COLD_DAY2)).contains("resolution=[elided (");
        assertThat(scalar(c, COLD_DAY1)).startsWith("48|").isNotEqualTo(before);
        assertThat(scalar(c, COLD_DAY2)).isEqualTo("48");
        assertThat(scalar(c, "SELECT count(*) FROM lastgang")).isEqualTo("144");
      }
      Collection<MetricData> data = metrics.collectAllMetrics();
      assertThat(coldRows(data, "elided")).as("rows of files read without resolution").isPositive();
      assertThat(coldRows(data, "resolved")).as("rows of the corrected day's files").isPositive();
      assertThat(names(data))
          .contains("meterstore.query.plan_duration", "meterstore.query.scan_duration");
      MetricData scans =
          data.stream()
              .filter(m -> m.getName().equals("meterstore.query.scan_duration"))
              .findFirst()
              .orElseThrow();
      assertThat(
              scans.getHistogramData().getPoints().stream()
                  .map(
                      p ->
                          p.getAttributes()
                              .get(io.opentelemetry.api.common.AttributeKey.stringKey("tier")))
                  .toList())
          .contains("hot", "cold");
    }
  }

  private static long coldRows(Collection<MetricData> data, String resolution) {
    return data.stream()
        .filter(m -> m.getName().equals("meterstore.query.cold.rows"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(
            p ->
                resolution.equals(
                    p.getAttributes()
                        .get(io.opentelemetry.api.common.AttributeKey.stringKey("resolution"))))
        .mapToLong(p -> p.getValue())
        .sum();
  }

  private static long sum(Collection<MetricData> data, String name) {
    return data.stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .mapToLong(p -> p.getValue())
        .sum();
  }

  private static List<String> names(Collection<MetricData> data) {
    return data.stream().map(MetricData::getName).toList();
  }
}
