package org.meterstore.hot.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The lock behaviour of DESIGN § 4 against a real lock queue: a long reader (an open transaction
 * that has read the parent) does not stop MeterStore's partition creation or the writers, while
 * {@code CREATE TABLE … PARTITION OF} queues behind the reader and every writer queues behind it; a
 * detach that cannot get its lock gives up within {@code ddl_lock_timeout} having changed nothing.
 */
@ExtendWith(PostgresExtension.class)
class PartitionLocksIT {
  private static final String SCHEMA = "meterstore";
  private static final Duration TIMEOUT = Duration.ofMillis(500);
  private static final Duration SLACK = Duration.ofSeconds(15);
  private static final String V1 = "20260303000000";

  private static HotStore store;
  private static ExecutorService threads;
  private final TestDatabase db;

  PartitionLocksIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, TIMEOUT);
    threads = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    store.close();
  }

  @Test
  void attachingWaitsForNoReaderWhilePartitionOfQueuesEveryWriterBehindIt() throws Exception {
    TableDefinition table = TableDefinition.interval("lastgang");
    store.createTables(List.of(table), NOW);
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    try (Connection reader = db.connect();
        Connection ddl = db.connect()) {
      openLongReader(reader, table);

      // MeterStore: attach three new windows and keep writing, all while the reader holds on.
      Future<List<WriteResult>> writes = threads.submit(() -> writeMeters(table, 2, 8, DAY));
      List<PartitionInfo> created =
          store
              .partitions()
              .ensure(table, DAY.plus(Duration.ofDays(1)), DAY.plus(Duration.ofDays(4)));
      assertThat(created).hasSize(3).allMatch(PartitionInfo::isAttached);
      assertThat(writes.get(SLACK.toSeconds(), TimeUnit.SECONDS)).hasSize(6);
      WriteResult intoNewWindow =
          threads
              .submit(
                  () -> store.write(table, Fixtures.day(9, DAY.plus(Duration.ofDays(2)), V1), NOW))
              .get(SLACK.toSeconds(), TimeUnit.SECONDS);
      assertThat(intoNewWindow.stored()).isEqualTo(96);

      // CREATE TABLE … PARTITION OF, for contrast: it queues for ACCESS EXCLUSIVE on the parent…
      int ddlPid = pid(ddl);
      Future<?> partitionOf =
          threads.submit(
              () -> {
                try (Statement s = ddl.createStatement()) {
                  s.execute("SET lock_timeout = '60s'");
                  s.execute(
                      "CREATE TABLE \"meterstore\".\"lastgang_by_hand\" PARTITION OF"
                          + " \"meterstore\".\"lastgang\""
                          + " FOR VALUES FROM ('2026-05-01T00:00Z') TO ('2026-05-02T00:00Z')");
                }
                return null;
              });
      awaitWaitingOnLock(pid -> pid == ddlPid, 1);
      assertThat(requestedModes(ddlPid)).containsExactly("AccessExclusiveLock");

      // …and a write that arrives now waits behind it, although it conflicts with no reader.
      Future<WriteResult> queued =
          threads.submit(() -> store.write(table, Fixtures.day(10, DAY, V1), NOW));
      awaitWaitingOnLock(pid -> pid != ddlPid, 1);
      assertThat(queued).isNotDone();
      assertThat(partitionOf).isNotDone();

      reader.rollback();
      partitionOf.get(SLACK.toSeconds(), TimeUnit.SECONDS);
      assertThat(queued.get(SLACK.toSeconds(), TimeUnit.SECONDS).stored()).isEqualTo(96);
    }
  }

  @Test
  void aDetachThatCannotGetItsLockGivesUpInTimeAndChangesNothing() throws Exception {
    TableDefinition table = TableDefinition.interval("detach_plain");
    store.createTables(List.of(table), NOW);
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    store.write(table, Fixtures.day(1, DAY.plus(Duration.ofDays(1)), V1), NOW);
    String name = table.name() + "_2026_03_02_0000";
    List<PartitionInfo> before = store.partitions().list(table);
    List<String> inheritsBefore = inherits(table);
    try (Connection reader = db.connect()) {
      openLongReader(reader, table);

      long started = System.nanoTime();
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () -> store.partitions().detach(table, name, DetachMode.PLAIN));
      Duration took = Duration.ofNanos(System.nanoTime() - started);

      assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
      assertThat(e.isRetryable()).isTrue();
      assertThat(e.getMessage())
          .contains(
              "Cannot detach partition " + name + " of table detach_plain", "nothing was changed");
      assertThat(took).isLessThan(TIMEOUT.plus(SLACK));
      assertThat(store.partitions().list(table)).isEqualTo(before);
      assertThat(inherits(table)).isEqualTo(inheritsBefore);
      assertThat(store.partitions().countRowsBelow(table, DAY.plus(Duration.ofDays(2))))
          .isEqualTo(192);
    }
    PartitionInfo detached = store.partitions().detach(table, name, DetachMode.PLAIN);
    assertThat(detached.state()).isEqualTo(PartitionState.DETACHED);
    assertThat(store.partitions().countRowsBelow(table, DAY.plus(Duration.ofDays(2))))
        .isEqualTo(96);
  }

  @Test
  void anInterruptedConcurrentDetachIsLeftPendingAndFinishedByTheNextOne() throws Exception {
    TableDefinition table = TableDefinition.interval("detach_concurrently");
    store.createTables(List.of(table), NOW);
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    String name = table.name() + "_2026_03_02_0000";
    try (Connection reader = db.connect()) {
      openLongReader(reader, table);
      long started = System.nanoTime();
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () -> store.partitions().detach(table, name, DetachMode.CONCURRENTLY));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
      assertThat(e.isRetryable()).isTrue();
      assertThat(took).isLessThan(TIMEOUT.plus(SLACK));
      assertThat(state(table, name)).isEqualTo(PartitionState.DETACH_PENDING);
      assertThat(e.getMessage()).contains("DETACH_PENDING", "CONCURRENTLY mode finishes it");
    }
    MeterStoreException plain =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.partitions().detach(table, name, DetachMode.PLAIN));
    assertThat(plain.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(plain.getMessage()).contains("FINALIZE");

    PartitionInfo finished = store.partitions().detach(table, name, DetachMode.CONCURRENTLY);
    assertThat(finished.state()).isEqualTo(PartitionState.DETACHED);
    assertThat(inherits(table)).isEmpty();
  }

  @Test
  void aDropThatCannotGetItsLockGivesUpInTime() throws Exception {
    TableDefinition table = TableDefinition.interval("drop_locked");
    store.createTables(List.of(table), NOW);
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    String name = table.name() + "_2026_03_02_0000";
    store.partitions().detach(table, name, DetachMode.PLAIN);
    try (Connection reader = db.connect()) {
      reader.setAutoCommit(false);
      try (Statement s = reader.createStatement()) {
        s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + name + "\"").close();
      }
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class, () -> store.partitions().drop(table, name));
      assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
      assertThat(state(table, name)).isEqualTo(PartitionState.DETACHED);
    }
    assertThat(store.partitions().drop(table, name)).isTrue();
    assertThat(store.partitions().list(table)).isEmpty();
    assertThat(store.partitions().drop(table, name)).isFalse();
  }

  private List<WriteResult> writeMeters(TableDefinition table, int first, int last, Instant day) {
    List<WriteResult> results = new ArrayList<>();
    for (int meter = first; meter < last; meter++) {
      results.add(store.write(table, Fixtures.day(meter, day, V1), NOW));
    }
    return results;
  }

  /** BEGIN; SELECT … FROM parent — left open, as a long report would. */
  private static void openLongReader(Connection reader, TableDefinition table) throws SQLException {
    reader.setAutoCommit(false);
    try (Statement s = reader.createStatement()) {
      s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + table.name() + "\"").close();
    }
  }

  private PartitionState state(TableDefinition table, String name) {
    return store.partitions().list(table).stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow()
        .state();
  }

  private List<String> inherits(TableDefinition table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT inhrelid::regclass::text || ' ' || inhdetachpending FROM pg_inherits"
                    + " WHERE inhparent = to_regclass(?) ORDER BY 1")) {
      s.setString(1, "\"meterstore\".\"" + table.name() + "\"");
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          rows.add(rs.getString(1));
        }
      }
    }
    return rows;
  }

  private static int pid(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** The lock modes {@code pid} waits for. */
  private List<String> requestedModes(int pid) throws SQLException {
    List<String> modes = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT mode FROM pg_locks WHERE pid = ? AND NOT granted")) {
      s.setInt(1, pid);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          modes.add(rs.getString(1));
        }
      }
    }
    return modes;
  }

  /** Polls pg_stat_activity until {@code count} matching backends wait on a heavyweight lock. */
  private void awaitWaitingOnLock(java.util.function.IntPredicate which, int count)
      throws Exception {
    long deadline = System.nanoTime() + SLACK.toNanos();
    while (true) {
      int waiting = 0;
      try (Connection c = db.connect();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                      + " AND wait_event_type = 'Lock'")) {
        while (rs.next()) {
          waiting += which.test(rs.getInt(1)) ? 1 : 0;
        }
      }
      if (waiting >= count) {
        return;
      }
      assertThat(System.nanoTime()).as("a backend waiting on a lock").isLessThan(deadline);
      Thread.sleep(50);
    }
  }
}
