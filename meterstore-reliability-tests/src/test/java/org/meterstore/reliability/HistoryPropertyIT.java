package org.meterstore.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.cold.ColdStore;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.History;
import org.meterstore.testing.workload.HistoryGenerator;

/**
 * "Nothing lost, nothing doubled, never a wrong number", over generated histories: each seed makes
 * a table's whole life ({@link HistoryGenerator}) — deliveries with gaps, fills, corrections in and
 * out of order, redeliveries before and after archival, late corrections after their window was
 * archived and after its partition was reclaimed, maintenance at an advancing simulated clock with
 * snapshot expiry, foreign commits and re-stamps, tags, a stale hot writer — played through the
 * façade and, beside it, through the {@link org.meterstore.testing.workload.ReferenceModel}. Every
 * write's outcomes and tiers, every maintenance cycle (healthy, no invariant violation, W never
 * back, no hot row below W, the reader grace kept) and every query in every read mode (current,
 * {@code _versions}, ranges across W, grouped sums, version ceilings, known-at, historical,
 * operational, as of live snapshots and tags, an expired snapshot refused) must agree with the
 * model to the last decimal.
 *
 * <p>{@value #DEFAULT_HISTORIES} histories by default (seeds 1…); {@code -Dmeterstore.histories=N}
 * runs another number, {@code -Dmeterstore.history.first=F} starts at seed F instead of 1 (the soak
 * script's {@code --from}), {@code -Dmeterstore.history.seed=S} replays the one seed a failure
 * names.
 */
@ExtendWith(PostgresExtension.class)
class HistoryPropertyIT {
  static final int DEFAULT_HISTORIES = 200;

  @TempDir static Path warehouse;
  private static HikariDataSource pool;
  private static HotStore hot;
  private static ColdStore cold;

  /** Both tiers, shared by every history (each has its own table and its own catalog). */
  @BeforeAll
  static void open(TestDatabase db) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(8);
    pool = new HikariDataSource(config);
    hot =
        HotStore.open(
            pool,
            HotSettings.DEFAULTS
                .withSchema(TwoTiers.SCHEMA)
                .withDdlLockTimeout(Duration.ofSeconds(3)),
            OpenTelemetry.noop());
    cold =
        ColdStore.open(
            TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse),
            OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    cold.close();
    hot.close();
    pool.close();
  }

  static Stream<Long> seeds() {
    String one = System.getProperty("meterstore.history.seed");
    if (one != null && !one.isBlank()) {
      return Stream.of(Long.parseLong(one.trim()));
    }
    int n = Integer.getInteger("meterstore.histories", DEFAULT_HISTORIES);
    long first = Long.getLong("meterstore.history.first", 1L);
    return LongStream.range(first, first + n).boxed();
  }

  @Execution(ExecutionMode.CONCURRENT)
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void theStoreAgreesWithTheModelThroughoutTheHistory(long seed) throws Exception {
    History history = HistoryGenerator.generate(seed);
    try (HistoryReplay replay = new HistoryReplay(history, hot, cold)) {
      replay.play();
      if (Boolean.getBoolean("meterstore.history.timing")) {
        System.err.println(
            "TIMING seed "
                + seed
                + " "
                + history
                + " ties "
                + replay.ties()
                + " "
                + replay.timings());
      }
    }
  }
}
