package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.hourly;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The plan cache: a SQL text is planned once per read mode and served from the cache afterwards, on
 * the same and on other connections, and the cached plan still answers from each execution's own W
 * (plans do not depend on it). {@code EXPLAIN} is planned every time.
 */
@ExtendWith(PostgresExtension.class)
class PlanCacheIT {
  private static final AttributeKey<String> CACHE = AttributeKey.stringKey("plan_cache");
  private static final String SQL =
      "SELECT count(*), sum(\"value\") FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-01"
          + " 00:00:00' AND \"from\" < TIMESTAMP '2026-01-04 00:00:00'";

  @TempDir Path warehouse;

  @Test
  void aRepeatedTextIsPlannedOnceAndAnswersFromTheCurrentWatermark(TestDatabase db)
      throws Exception {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    TableDefinition def = TwoTiers.table("lastgang", Duration.ofDays(29), Duration.ofMinutes(30));
    java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
    List<Thread> coldThreads;
    try (QueryFixture d =
        new QueryFixture(
            db,
            warehouse,
            Instant.parse("2026-02-01T00:00:00Z"),
            List.of(def),
            otel,
            engine -> engine.inlineColdReadBytes(0))) { // the pool reads, so closing must stop it
      d.hot.write(def, hourly(2, DAY1, DAY4, "20260105000000"), d.clock.instant());
      d.archive(def, DAY1, DAY2, false);
      String expected = Fixtures.scalar(d.catalog.connection(), SQL);
      assertThat(expected).startsWith("144|");
      assertThat(counts(metrics)).containsExactly(1L, 0L, 0L); // miss, hit, off

      try (Connection c = d.catalog.connection()) {
        assertThat(Fixtures.scalar(c, SQL)).isEqualTo(expected);
        assertThat(counts(metrics)).containsExactly(1L, 1L, 0L);

        d.archive(def, DAY2, DAY3, false); // W moves: the cached plan must read the new W
        assertThat(d.coldTable(def).watermark()).isEqualTo(DAY3);
        assertThat(Fixtures.scalar(c, SQL)).isEqualTo(expected);
        assertThat(Fixtures.explain(c, SQL)).contains("watermark=[" + DAY3 + "]");
        assertThat(Fixtures.explain(c, SQL)).contains("watermark=[" + DAY3 + "]");
        assertThat(counts(metrics)).containsExactly(1L, 2L, 2L);

        String parameterised = "SELECT count(*) FROM lastgang WHERE \"from\" >= ? AND \"from\" < ?";
        try (PreparedStatement first = c.prepareStatement(parameterised);
            PreparedStatement second = c.prepareStatement(parameterised)) {
          assertThat(count(first, DAY1, DAY4)).isEqualTo(144);
          d.archive(def, DAY3, DAY4, false);
          assertThat(count(second, DAY2, DAY4)).isEqualTo(96);
          assertThat(count(first, DAY1, DAY4)).isEqualTo(144);
        }
        assertThat(counts(metrics)).containsExactly(2L, 3L, 2L);
      }
      assertThat(d.catalog.cachedPlans()).isEqualTo(2);
      coldThreads =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.getName().startsWith("meterstore-query-cold-"))
              .filter(t -> !before.contains(t))
              .toList();
      assertThat(coldThreads).as("the engine's pool read the cold files").isNotEmpty();
    }
    for (Thread t : coldThreads) {
      t.join(5_000);
    }
    assertThat(coldThreads)
        .as("closing the engine (with the fixture) stops its pool")
        .noneMatch(Thread::isAlive);
  }

  private static long count(PreparedStatement s, Instant from, Instant to) throws Exception {
    s.setTimestamp(1, Timestamp.from(from));
    s.setTimestamp(2, Timestamp.from(to));
    try (ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Plannings recorded as a cache miss, a hit and not cached, in that order. */
  private static List<Long> counts(InMemoryMetricReader reader) {
    long[] n = new long[3];
    for (MetricData m : reader.collectAllMetrics()) {
      if (!m.getName().equals("meterstore.query.plan_duration")) {
        continue;
      }
      for (HistogramPointData p : m.getHistogramData().getPoints()) {
        String result = p.getAttributes().get(CACHE);
        int i = "miss".equals(result) ? 0 : "hit".equals(result) ? 1 : 2;
        n[i] = p.getCount();
      }
    }
    return List.of(n[0], n[1], n[2]);
  }
}
