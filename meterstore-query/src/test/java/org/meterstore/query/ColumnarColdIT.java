package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.hourly;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
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
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.ObjectStoreServer;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Cold scans through the engine take the columnar path: over S3-compatible storage (MinIO where
 * Docker answers, else in-process s3proxy: {@link ObjectStoreServer}) and with a predicate bound
 * from a statement parameter; the counter {@code meterstore.query.cold.rows} tells the path.
 */
@ExtendWith(PostgresExtension.class)
class ColumnarColdIT {
  private static final String BUCKET = "meterstore-query-test";

  @TempDir Path warehouse;

  @Test
  void aColdScanOverS3TakesTheColumnarPath(TestDatabase db) throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel = sdk(metrics);
    ObjectStoreServer server = ObjectStoreServer.start("access", "secret-key");
    server.createBucket(BUCKET);
    TableDefinition def = TableDefinition.interval("s3_lastgang");
    Instant now = Instant.parse("2026-02-01T00:00:00Z");
    try (HotStore hot =
            HotStore.open(
                db.dataSource(), HotSettings.DEFAULTS, io.opentelemetry.api.OpenTelemetry.noop());
        ColdStore cold =
            ColdStore.open(
                ColdConfig.jdbc(
                        db.jdbcUrl(), db.user(), db.password(), "s3://" + BUCKET + "/warehouse")
                    .withS3(
                        S3Settings.pathStyle(
                            server.endpoint(),
                            ObjectStoreServer.REGION,
                            server.accessKey(),
                            server.secretKey())))) {
      hot.createTables(List.of(def), now);
      List<Reading> readings = hourly(3, DAY1, DAY3, "20260105000000");
      cold.createTable(def)
          .archive(
              new ArchiveRequest(DAY1, DAY3, now, 1),
              readings.stream().map(r -> StoredRow.of(def, StoredReading.accept(r, now))).toList());
      BigDecimal expected =
          readings.stream().map(Reading::value).reduce(BigDecimal.ZERO, BigDecimal::add);
      QueryEngine engine =
          QueryEngine.builder()
              .tables(List.of(def))
              .hot(hot, db.dataSource())
              .cold(cold)
              .clock(new MutableClock(now))
              .openTelemetry(otel)
              .build();
      try (Connection c = engine.connection()) {
        assertThat(Fixtures.scalar(c, "SELECT count(*), sum(\"value\") FROM s3_lastgang"))
            .isEqualTo(readings.size() + "|" + expected.stripTrailingZeros().toPlainString());
      } finally {
        engine.close();
      }
    } finally {
      server.close();
    }
    assertThat(coldRows(metrics.collectAllMetrics(), "columnar")).isEqualTo(144);
    assertThat(coldRows(metrics.collectAllMetrics(), "records")).isZero();
  }

  @Test
  void aParameterBoundPredicateFiltersTheColdScan(TestDatabase db) throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    TableDefinition def = TableDefinition.interval("lastgang");
    Instant now = Instant.parse("2026-02-01T00:00:00Z");
    try (QueryFixture d = new QueryFixture(db, warehouse, now, List.of(def), sdk(metrics))) {
      d.hot.write(def, hourly(3, DAY1, DAY3, "20260105000000"), now);
      d.archive(def, DAY1, DAY2, true);
      d.archive(def, DAY2, DAY3, true);
      String sql =
          "SELECT count(*), sum(\"value\") FROM lastgang WHERE malo_id = ? AND \"from\" >= ?";
      try (Connection c = d.catalog.connection();
          PreparedStatement s = c.prepareStatement(sql)) {
        String literal =
            Fixtures.scalar(
                c,
                "SELECT count(*), sum(\"value\") FROM lastgang WHERE malo_id = '"
                    + Workload.malo(2)
                    + "' AND \"from\" >= TIMESTAMP '2026-01-01 12:00:00'");
        s.setString(1, Workload.malo(2));
        s.setTimestamp(2, Timestamp.from(Instant.parse("2026-01-01T12:00:00Z")));
        try (ResultSet rs = s.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1) + "|" + rs.getBigDecimal(2).stripTrailingZeros().toPlainString())
              .isEqualTo(literal);
          assertThat(rs.getLong(1)).isEqualTo(36);
        }
      }
    }
    assertThat(coldRows(metrics.collectAllMetrics(), "columnar")).isPositive();
  }

  private static OpenTelemetrySdk sdk(InMemoryMetricReader metrics) {
    return OpenTelemetrySdk.builder()
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
        .build();
  }

  private static long coldRows(java.util.Collection<MetricData> data, String path) {
    return data.stream()
        .filter(m -> m.getName().equals("meterstore.query.cold.rows"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> path.equals(p.getAttributes().get(AttributeKey.stringKey("path"))))
        .mapToLong(p -> p.getValue())
        .sum();
  }
}
