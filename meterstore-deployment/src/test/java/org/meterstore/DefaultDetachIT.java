package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * The maintenance loop detaches {@code CONCURRENTLY} unless told otherwise, both from a catalog
 * over the caller's stores ({@link MeterCatalog#of}) and from a configuration without {@code [hot]
 * detach_mode} ({@link MeterStores#open}): with a long reader holding the table and a {@code
 * ddl_lock_timeout} far longer than the test, the cycle's detach waits for the reader, and an
 * insert into the current window completes while it waits (behind a plain detach it would queue for
 * the whole timeout). When the reader ends, the same cycle finishes and archives.
 *
 * <p>Nothing here depends on how long anything takes: the test watches {@code pg_stat_activity} for
 * the detach waiting and for an insert that waits behind it. The deadline only stops a broken run
 * from hanging.
 */
@ExtendWith(PostgresExtension.class)
class DefaultDetachIT {
  /** Longer than the test: the detach waits for the reader instead of giving up. */
  private static final Duration LOCK_TIMEOUT = Duration.ofMinutes(10);

  private static final Duration HANG_GUARD = Duration.ofMinutes(2);
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR5 = Instant.parse("2026-03-05T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");

  @TempDir static Path dir;
  private static CatalogFixture d;
  private static ExecutorService threads;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, dir.resolve("fixture"), LOCK_TIMEOUT, OpenTelemetry.noop());
    threads = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    d.close();
  }

  @Test
  void aCatalogOverTheCallersStoresDetachesWithoutStallingInserts(TestDatabase db)
      throws Exception {
    TableDefinition table = CatalogFixture.table("ueber", LAG, Duration.ZERO);
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());

    insertCompletesWhileTheDefaultDetachWaits(db, catalog, table);
  }

  @Test
  void aConfigurationWithoutDetachModeDetachesWithoutStallingInserts(TestDatabase db)
      throws Exception {
    try (MeterCatalog catalog = MeterStores.open(config(db, "konfig", ""), OpenTelemetry.noop())) {
      insertCompletesWhileTheDefaultDetachWaits(db, catalog, catalog.require("konfig"));
    }
  }

  @Test
  void plainDetachIsStillSelectableInTheConfiguration(TestDatabase db) throws Exception {
    try (MeterCatalog catalog =
        MeterStores.open(
            config(db, "schlicht", "detach_mode = \"plain\"\n"), OpenTelemetry.noop())) {
      assertThat(catalog.maintenance().detachMode()).isEqualTo(DetachMode.PLAIN);
    }
  }

  private static void insertCompletesWhileTheDefaultDetachWaits(
      TestDatabase db, MeterCatalog catalog, TableDefinition table) throws Exception {
    catalog.createTables(NOW);
    catalog.table(table.name()).append(EmbeddedDefaultIT.readings(2, MAR2, MAR5), NOW);
    Future<MaintenanceOutcome> cycle = null;
    try (Connection reader = db.connect();
        Connection monitor = db.connect()) {
      reader.setAutoCommit(false);
      try (Statement s = reader.createStatement()) {
        s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + table.name() + "\"").close();
      }
      try {
        cycle = threads.submit(() -> catalog.maintenance().runOnce(NOW));
        int detach = awaitWaitingDetach(monitor, cycle);

        Future<WriteResult> insert =
            threads.submit(() -> catalog.table(table.name()).append(List.of(current()), NOW));
        awaitUnblocked(monitor, insert, detach);

        assertThat(insert.get().outcomes()).containsExactly(WriteOutcome.INSERTED);
        assertThat(waitingDetach(monitor))
            .as("the detach is still waiting for the reader after the insert completed")
            .contains(detach);
        assertThat(cycle).isNotDone();
      } finally {
        reader.rollback();
        settle(cycle);
      }
    }
    MaintenanceOutcome outcome = cycle.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
    TableOutcome row = outcome.row(table.name()).orElseThrow();
    assertThat(row.status()).isEqualTo(Status.ARCHIVED);
    assertThat(row.invariantViolations()).hasValue(0);
    assertThat(catalog.table(table.name()).watermark()).isEqualTo(MAR5);
  }

  /** Lets a cycle that a failed assertion left behind end before the next test starts. */
  private static void settle(Future<?> cycle) {
    if (cycle == null) {
      return;
    }
    try {
      cycle.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      // reported by the assertions on the outcome, or by the failure already under way
    }
  }

  /** The pid of the cycle's {@code DETACH PARTITION} once it waits for a lock. */
  private static int awaitWaitingDetach(Connection monitor, Future<?> cycle) throws Exception {
    long deadline = System.nanoTime() + HANG_GUARD.toNanos();
    while (System.nanoTime() < deadline) {
      List<Integer> waiting = waitingDetach(monitor);
      if (!waiting.isEmpty()) {
        return waiting.get(0);
      }
      if (cycle.isDone()) {
        fail("The cycle ended without waiting for the long reader: " + cycle.get());
      }
      Thread.sleep(20);
    }
    return fail("No detach waited for the long reader");
  }

  /**
   * Returns once {@code insert} completed; fails as soon as any backend is seen waiting behind the
   * detach (what a plain detach does to every insert into the table).
   */
  private static void awaitUnblocked(Connection monitor, Future<?> insert, int detach)
      throws Exception {
    long deadline = System.nanoTime() + HANG_GUARD.toNanos();
    while (!insert.isDone()) {
      try (PreparedStatement s =
          monitor.prepareStatement(
              "SELECT pid, wait_event_type || ':' || wait_event, query FROM pg_stat_activity"
                  + " WHERE datname = current_database() AND ? = ANY(pg_blocking_pids(pid))")) {
        s.setInt(1, detach);
        try (ResultSet rs = s.executeQuery()) {
          if (rs.next()) {
            fail(
                "An insert waits behind the detach: pid %d waits (%s) in '%s'",
                rs.getInt(1), rs.getString(2), rs.getString(3));
          }
        }
      }
      if (System.nanoTime() > deadline) {
        fail("The insert did not complete");
      }
      Thread.sleep(20);
    }
  }

  private static List<Integer> waitingDetach(Connection monitor) throws SQLException {
    try (Statement s = monitor.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND wait_event_type = 'Lock' AND query ILIKE '%DETACH PARTITION%'")) {
      List<Integer> pids = new java.util.ArrayList<>();
      while (rs.next()) {
        pids.add(rs.getInt(1));
      }
      return pids;
    }
  }

  /** One quarter-hour of a new meter in the current, not yet due window. */
  private static Reading current() {
    return Reading.builder()
        .malo(Workload.malo(1000))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(NOW.minus(Duration.ofHours(1)), Resolution.PT15M)
        .value("1.5")
        .version("20260306050000")
        .operator(Workload.OPERATOR)
        .build();
  }

  /** A configuration of table {@code name} on the test database, {@code hot} added to [hot]. */
  private static Path config(TestDatabase db, String name, String hot) throws Exception {
    Path config = dir.resolve(name + ".toml");
    Files.writeString(
        config,
        "[hot]\nurl = \""
            + db.jdbcUrl()
            + "\"\nuser = \""
            + db.user()
            + "\"\npassword = \""
            + db.password()
            + "\"\npool_size = 4\nddl_lock_timeout = \"10m\"\n"
            + hot
            + "\n[cold]\nwarehouse = \""
            + dir.resolve(name + "-warehouse").toUri()
            + "\"\n\n[[tables]]\nname = \""
            + name
            + "\"\nsettlement_lag = \"1d\"\nreader_grace = \"0s\"\n",
        StandardCharsets.UTF_8);
    return config;
  }
}
