package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
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
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The hot tier's floor (DESIGN § 4), through {@link HotStore} alone: no partition is created and no
 * row stored below it, whoever writes — in particular not for an archived day whose partition was
 * reclaimed, which the hot tier used to create again below the watermark, invisible to every query.
 */
@ExtendWith(PostgresExtension.class)
class HotFloorIT {
  private static final String SCHEMA = "meterstore";
  private static final String V1 = "20260303000000";
  private static final String V2 = "20260304000000";
  private static final Instant DAY2 = DAY.plus(Duration.ofDays(1));
  private static final Instant DAY3 = DAY.plus(Duration.ofDays(2));

  private static HotStore store;
  private static ExecutorService threads;
  private final TestDatabase db;

  HotFloorIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    threads = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    store.close();
  }

  @Test
  void aWriteBelowTheRecordedFloorIsRefusedWholeAndCreatesNoPartition() throws SQLException {
    TableDefinition table = created("below_floor");
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    assertThat(store.partitions().recordFloor(table, DAY3)).isEqualTo(DAY3);
    List<PartitionInfo> partitionsBefore = store.partitions().list(table);
    Instant below = DAY2.plus(Duration.ofHours(5));

    BelowFloorException e =
        catchThrowableOfType(
            BelowFloorException.class,
            () ->
                store.write(
                    table,
                    List.of(
                        quarterHour(2, DAY3.plus(Duration.ofHours(1)), "1", V1).build(),
                        quarterHour(2, below, "2", V1).build()),
                    NOW));

    assertThat(e).as("refusal").isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.isRetryable()).isFalse();
    assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.BELOW_FLOOR);
    assertThat(e.table()).isEqualTo("below_floor");
    assertThat(e.floor()).contains(DAY3);
    assertThat(e.readingFrom()).contains(below);
    assertThat(e.getMessage())
        .contains(
            "Cannot write to table below_floor: reading #1 Reading[" + Fixtures.malo(2),
            "starts before the table's floor " + DAY3,
            "write them with append, which routes them to the cold tier");
    assertThat(rowCount(table)).isEqualTo(96);
    assertThat(store.partitions().list(table)).isEqualTo(partitionsBefore);
  }

  @Test
  void aReclaimedPartitionBelowTheFloorIsNotCreatedAgain() throws SQLException {
    TableDefinition table = created("reclaimed");
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    store.write(table, Fixtures.day(1, DAY2, V1), NOW);
    String archived = "reclaimed_2026_03_02_0000";
    // the archival cycle: detach, commit W = DAY2 to the cold tier, record the floor, reclaim
    store.partitions().detach(table, archived, DetachMode.PLAIN);
    store.partitions().recordFloor(table, DAY2);
    assertThat(store.partitions().drop(table, archived)).isTrue();

    BelowFloorException e =
        catchThrowableOfType(
            BelowFloorException.class,
            () -> store.write(table, Fixtures.day(1, DAY, V2), NOW.plusSeconds(60)));

    assertThat(e).as("refusal of a late correction of the archived day").isNotNull();
    assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.BELOW_FLOOR);
    assertThat(e.floor()).contains(DAY2);
    assertThat(e.readingFrom()).contains(DAY);
    assertThat(store.partitions().list(table))
        .extracting(PartitionInfo::name)
        .containsExactly("reclaimed_2026_03_03_0000");
    assertThat(rowCount(table)).isEqualTo(96);
    BelowFloorException ensure =
        catchThrowableOfType(
            BelowFloorException.class,
            () -> store.partitions().ensure(table, DAY, DAY.plusSeconds(1)));
    assertThat(ensure.windowStart()).contains(DAY);
    assertThat(ensure.windowEnd()).contains(DAY2);
    assertThat(ensure.readingFrom()).isEmpty();
    assertThat(ensure.getMessage())
        .contains("Cannot create partition " + archived, "starts before the table's floor " + DAY2);
    assertThat(store.partitions().list(table)).hasSize(1);
  }

  @Test
  void aStoreThatStillBelievesTheReclaimedPartitionAttachedIsRefusedInsideTheWrite()
      throws SQLException {
    TableDefinition table = created("stale_writer");
    try (HotStore writer = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3))) {
      writer.write(table, Fixtures.day(1, DAY, V1), NOW);
      writer.write(table, Fixtures.day(1, DAY2, V1), NOW);
      String archived = "stale_writer_2026_03_02_0000";
      store.partitions().detach(table, archived, DetachMode.PLAIN);
      store.partitions().recordFloor(table, DAY2);
      store.partitions().drop(table, archived);

      BelowFloorException e =
          catchThrowableOfType(
              BelowFloorException.class,
              () -> writer.write(table, Fixtures.day(1, DAY, V2), NOW.plusSeconds(60)));

      assertThat(e).as("refusal by a store that saw the window attached").isNotNull();
      assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.BELOW_FLOOR);
      assertThat(e.readingFrom()).contains(DAY);
      assertThat(store.partitions().list(table)).hasSize(1);
      assertThat(rowCount(table)).isEqualTo(96);
    }
  }

  @Test
  void aWriteIntoADetachedWindowIsRefusedWithItsOwnReason() throws SQLException {
    TableDefinition table = created("detached_window");
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    store.partitions().detach(table, "detached_window_2026_03_02_0000", DetachMode.PLAIN);
    Instant from = DAY.plus(Duration.ofHours(3));

    BelowFloorException e =
        catchThrowableOfType(
            BelowFloorException.class,
            () -> store.write(table, List.of(quarterHour(3, from, "1", V1).build()), NOW));

    assertThat(e).as("refusal").isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.PARTITION_DETACHED);
    assertThat(e.floor()).isEmpty();
    assertThat(e.windowStart()).contains(DAY);
    assertThat(e.windowEnd()).contains(DAY2);
    assertThat(e.readingFrom()).contains(from);
    assertThat(e.getMessage())
        .contains(
            "reading #0 Reading[" + Fixtures.malo(3),
            "detached_window_2026_03_02_0000 is DETACHED",
            "cold tier");
    assertThat(rowCount(table)).isZero();
  }

  @Test
  void headroomBelowTheFloorStartsAtTheFloor() {
    TableDefinition table =
        created("headroom", TablePolicy.DEFAULTS.withPartitionHeadroom(Duration.ofDays(3)));
    Instant floor = DAY.plus(Duration.ofDays(10));
    store.partitions().recordFloor(table, floor);

    assertThat(store.partitions().ensureHeadroom(table, DAY)).isEmpty();
    assertThat(store.partitions().list(table)).isEmpty();

    List<PartitionInfo> created =
        store.partitions().ensureHeadroom(table, floor.minus(Duration.ofHours(30)));
    assertThat(created)
        .extracting(PartitionInfo::lowerBound)
        .containsExactly(floor, floor.plus(Duration.ofDays(1)));
    assertThat(store.partitions().list(table))
        .allSatisfy(p -> assertThat(p.lowerBound()).isAfterOrEqualTo(floor));
  }

  @Test
  void aFloorInsideAWindowKeepsThatWindowFromBeingCreated() throws SQLException {
    TableDefinition table = created("unaligned");
    Instant floor = DAY.plus(Duration.ofHours(6));
    store.partitions().recordFloor(table, floor);
    Instant from = floor.plus(Duration.ofHours(1));

    BelowFloorException e =
        catchThrowableOfType(
            BelowFloorException.class,
            () -> store.write(table, List.of(quarterHour(5, from, "1", V1).build()), NOW));

    assertThat(e).as("refusal of a window that starts below the floor").isNotNull();
    assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.BELOW_FLOOR);
    assertThat(e.windowStart()).contains(DAY);
    assertThat(e.readingFrom()).contains(from);
    assertThat(e.getMessage())
        .contains(
            "reading #0 Reading[" + Fixtures.malo(5),
            "lies in window ["
                + DAY
                + ", "
                + DAY2
                + "), which starts before the table's floor "
                + floor);
    assertThat(e.getCause()).isInstanceOf(BelowFloorException.class);
    assertThat(store.partitions().list(table)).isEmpty();
    assertThat(rowCount(table)).isZero();
    assertThat(store.partitions().ensureHeadroom(table, floor))
        .extracting(PartitionInfo::lowerBound)
        .first()
        .isEqualTo(DAY2);
  }

  @Test
  void recordFloorNeverLowersIt() {
    TableDefinition table = created("monotonic");
    assertThat(store.partitions().floor(table)).isEqualTo(Instant.EPOCH);
    assertThat(store.partitions().recordFloor(table, DAY3)).isEqualTo(DAY3);
    assertThat(store.partitions().recordFloor(table, DAY2)).isEqualTo(DAY3);
    assertThat(store.partitions().floor(table)).isEqualTo(DAY3);
    assertThat(store.partitions().recordFloor(table, DAY3.plusSeconds(900)))
        .isEqualTo(DAY3.plusSeconds(900));
    MeterStoreException missing =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.partitions().recordFloor(TableDefinition.interval("absent"), DAY));
    assertThat(missing.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(missing.getMessage()).contains("Table absent does not exist", "'meterstore create'");
  }

  @Test
  void aWriteAtAndAboveTheFloorIsStored() throws SQLException {
    TableDefinition table = created("at_floor");
    store.partitions().recordFloor(table, DAY2);

    WriteResult result = store.write(table, Fixtures.day(4, DAY2, V1), NOW);

    assertThat(result.count(WriteOutcome.INSERTED)).isEqualTo(96);
    assertThat(rowCount(table)).isEqualTo(96);
    assertThat(store.partitions().list(table))
        .extracting(PartitionInfo::lowerBound)
        .containsExactly(DAY2);
  }

  @Test
  void aFloorRaisedWhileAWriteIsInFlightWaitsForTheWrite() throws Exception {
    TableDefinition table = created("in_flight_write");
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    try (HotStore impatient = Fixtures.store(db, SCHEMA, Duration.ofMillis(300));
        Connection write = db.connect()) {
      write.setAutoCommit(false);
      // what a write holds from its first round trip to its commit
      shareLockRegistryRow(write, table);

      MeterStoreException timedOut =
          catchThrowableOfType(
              MeterStoreException.class, () -> impatient.partitions().recordFloor(table, DAY2));
      assertThat(timedOut.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
      assertThat(timedOut.isRetryable()).isTrue();
      assertThat(store.partitions().floor(table)).isEqualTo(Instant.EPOCH);

      Future<Instant> raise = threads.submit(() -> store.partitions().recordFloor(table, DAY2));
      Thread.sleep(300);
      assertThat(raise).isNotDone();
      write.commit();
      assertThat(raise.get(10, TimeUnit.SECONDS)).isEqualTo(DAY2);
    }
  }

  @Test
  void aWriteWaitsForAFloorRaiseInFlightAndIsRefusedByIt() throws Exception {
    TableDefinition table = created("in_flight_raise");
    store.write(table, Fixtures.day(1, DAY, V1), NOW); // the window is now known attached
    try (Connection raise = db.connect()) {
      raise.setAutoCommit(false);
      try (PreparedStatement s =
          raise.prepareStatement("UPDATE \"meterstore\".tables SET hot_floor = ? WHERE name = ?")) {
        s.setObject(1, DAY2.atOffset(ZoneOffset.UTC));
        s.setString(2, table.name());
        assertThat(s.executeUpdate()).isEqualTo(1);
      }

      Future<WriteResult> write =
          threads.submit(() -> store.write(table, Fixtures.day(1, DAY, V2), NOW.plusSeconds(60)));
      Thread.sleep(300);
      assertThat(write).as("the write waits for the raise").isNotDone();
      raise.commit();

      Throwable failure =
          catchThrowableOfType(
              java.util.concurrent.ExecutionException.class, () -> write.get(10, TimeUnit.SECONDS));
      assertThat(failure.getCause()).isInstanceOf(BelowFloorException.class);
      assertThat(((BelowFloorException) failure.getCause()).floor()).contains(DAY2);
    }
    assertThat(rowCount(table)).isEqualTo(96);
  }

  private static TableDefinition created(String name) {
    return created(name, TablePolicy.DEFAULTS);
  }

  private static TableDefinition created(String name, TablePolicy policy) {
    TableDefinition table = TableDefinition.interval(name).withPolicy(policy);
    store.createTables(List.of(table), NOW);
    return table;
  }

  private long rowCount(TableDefinition table) throws SQLException {
    return Fixtures.scalar(db, "SELECT count(*) FROM \"meterstore\".\"" + table.name() + "\"");
  }

  private static void shareLockRegistryRow(Connection c, TableDefinition table)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT 1 FROM \"meterstore\".tables WHERE name = ? FOR SHARE")) {
      s.setString(1, table.name());
      s.executeQuery().close();
    }
  }
}
