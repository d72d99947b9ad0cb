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
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Rows;

/**
 * An execution that reads both tiers pays one PostgreSQL round trip for its state when the JDBC
 * catalog lives in the hot tier's database: the catalog's pointer, W, the partitions and the pin
 * come back together, and the pin is released in the trip that ends the hot scan's transaction. A
 * commit in between (the pointer moved) is read from the new metadata file, never from a stale one.
 */
@ExtendWith(PostgresExtension.class)
class OneTripStateIT {
  private static final String SQL =
      "SELECT " + Rows.COLUMNS + " FROM trips WHERE \"from\" >= ? AND \"from\" < ?";

  @TempDir Path warehouse;

  @Test
  void anExecutionAcrossWReadsItsStateInOneRoundTripAndSeesEveryCommit(TestDatabase db)
      throws Exception {
    TableDefinition def = TwoTiers.table("trips", Duration.ofDays(29), Duration.ofMinutes(30));
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    AtomicInteger trips = new AtomicInteger();
    DataSource counted = counting(db.dataSource(), trips);
    try (QueryFixture d =
            new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(def));
        HotStore hot =
            HotStore.open(
                counted,
                HotSettings.DEFAULTS.withSchema(TwoTiers.SCHEMA),
                io.opentelemetry.api.OpenTelemetry.noop());
        QueryEngine engine =
            QueryEngine.builder()
                .tables(List.of(def))
                .hot(hot, counted)
                .cold(d.cold)
                .clock(d.clock)
                .openTelemetry(otel)
                .build()) {
      d.hot.write(def, hourly(3, DAY1, DAY4, "20260105000000"), d.clock.instant());
      d.archive(def, DAY1, DAY2, true);
      try (Connection c = engine.connection();
          PreparedStatement across = c.prepareStatement(SQL)) {
        across.setTimestamp(1, Timestamp.from(DAY1));
        across.setTimestamp(2, Timestamp.from(DAY4));
        List<String> expected = rows(across); // the first execution proves the catalog's row
        assertThat(expected).hasSize(3 * 72);

        long oneTrip = stateReads(metrics, "one_trip");
        trips.set(0);
        for (int i = 0; i < 3; i++) {
          assertThat(rows(across)).isEqualTo(expected);
        }
        // per execution: the state (pointer, W, partitions, pin), the hot query, and the end of
        // its transaction together with the pin's release
        assertThat(trips.get()).isEqualTo(3 * 3);
        assertThat(stateReads(metrics, "one_trip") - oneTrip).isEqualTo(3);
        assertThat(stateReads(metrics, "catalog_first")).isLessThanOrEqualTo(1);
        assertThat(d.hot.pins().active("trips", d.clock.instant())).isEmpty();

        String count = "SELECT count(*) FROM trips";
        assertThat(Fixtures.explain(c, count)).contains("trips_2026_01_02_0000");

        // a commit moves the catalog's pointer: the next execution reads W = DAY3 from the new
        // metadata file in the same single trip, and answers the same rows
        d.archive(def, DAY2, DAY3, false);
        trips.set(0);
        assertThat(rows(across)).isEqualTo(expected);
        assertThat(trips.get()).isEqualTo(3);
        assertThat(stateReads(metrics, "one_trip") - oneTrip).as("and the EXPLAIN's").isEqualTo(5);
        assertThat(Fixtures.explain(c, count))
            .as("the hot side reads from W = DAY3 on")
            .contains("trips_2026_01_03_0000")
            .doesNotContain("trips_2026_01_02_0000");
        assertThat(d.hot.pins().active("trips", d.clock.instant())).isEmpty();
      }
    }
  }

  private static long stateReads(InMemoryMetricReader metrics, String path) {
    return metrics.collectAllMetrics().stream()
        .filter(m -> m.getName().equals("meterstore.query.state_reads"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> path.equals(p.getAttributes().get(AttributeKey.stringKey("path"))))
        .mapToLong(p -> p.getValue())
        .sum();
  }

  private static List<String> rows(PreparedStatement s) throws SQLException {
    try (ResultSet rs = s.executeQuery()) {
      return Rows.read(rs);
    }
  }

  /** Methods that send to the server and wait for its answer. */
  private static final Set<String> ROUND_TRIPS =
      Set.of("execute", "executeQuery", "executeUpdate", "executeBatch", "commit", "rollback");

  /**
   * {@code ds} whose connections count, in {@code trips}, the calls that wait for the server: a
   * statement's execution (several statements sent as one count once) and an explicit commit or
   * rollback. Fetching more rows than the first batch is not counted: the test's results are small.
   */
  private static DataSource counting(DataSource ds, AtomicInteger trips) {
    return (DataSource)
        Proxy.newProxyInstance(
            OneTripStateIT.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              Object result = invoke(ds, method, args);
              return result instanceof Connection connection
                  ? wrap(connection, Connection.class, trips)
                  : result;
            });
  }

  private static Object wrap(Object target, Class<?> type, AtomicInteger trips) {
    return Proxy.newProxyInstance(
        OneTripStateIT.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, args) -> {
          if (ROUND_TRIPS.contains(method.getName())) {
            trips.incrementAndGet();
          }
          Object result = invoke(target, method, args);
          if (result instanceof PreparedStatement s) {
            return wrap(s, PreparedStatement.class, trips);
          }
          if (result instanceof Statement s) {
            return wrap(s, Statement.class, trips);
          }
          return result;
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
