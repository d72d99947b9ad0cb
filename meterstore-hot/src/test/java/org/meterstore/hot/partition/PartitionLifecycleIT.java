package org.meterstore.hot.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** Partitions on the UTC grid: names, bounds, headroom, the constraints they carry, their end. */
@ExtendWith(PostgresExtension.class)
class PartitionLifecycleIT {
  private static final String V1 = "20260303000000";
  private static HotStore store;
  private final TestDatabase db;

  PartitionLifecycleIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, "meterstore", Duration.ofSeconds(3));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void headroomCoversFloorOfNowToNowPlusHeadroomOnTheStepGrid() {
    TableDefinition table =
        TableDefinition.interval("six_hourly")
            .withPolicy(
                TablePolicy.DEFAULTS
                    .withArchivalStep(Duration.ofHours(6))
                    .withPartitionHeadroom(Duration.ofDays(1)));
    store.createTables(List.of(table), NOW);
    Instant now = Instant.parse("2026-03-10T13:20:00Z");

    List<PartitionInfo> created = store.partitions().ensureHeadroom(table, now);

    assertThat(created)
        .extracting(PartitionInfo::name)
        .containsExactly(
            "six_hourly_2026_03_10_1200",
            "six_hourly_2026_03_10_1800",
            "six_hourly_2026_03_11_0000",
            "six_hourly_2026_03_11_0600",
            "six_hourly_2026_03_11_1200");
    assertThat(created.get(0).lowerBound()).isEqualTo(Instant.parse("2026-03-10T12:00:00Z"));
    assertThat(created.get(0).upperBound()).isEqualTo(Instant.parse("2026-03-10T18:00:00Z"));
    assertThat(store.partitions().list(table)).isEqualTo(created);
    assertThat(store.partitions().ensureHeadroom(table, now)).isEmpty();
  }

  @Test
  void aPartitionCarriesItsSpanExclusionConstraintAndNoBoundCheckAndThereIsNoDefault()
      throws SQLException {
    TableDefinition table = TableDefinition.interval("constrained");
    store.createTables(List.of(table), NOW);
    store.partitions().ensure(table, DAY, DAY.plusSeconds(1));
    String partition = "constrained_2026_03_02_0000";
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM pg_constraint WHERE conrelid = '\"meterstore\".\""
                    + partition
                    + "\"'::regclass AND contype = 'x'"))
        .isEqualTo(1);
    // one_operator_per_reading is the writer's since ADR 0016: only older partitions carry it
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM pg_constraint WHERE conname = '"
                    + partition
                    + "_no_overlap'"))
        .isEqualTo(1);
    assertThat(
            Fixtures.scalar(
                db, "SELECT count(*) FROM pg_constraint WHERE conname = '" + partition + "_bound'"))
        .isZero();
    assertThat(
            Fixtures.scalar(db, "SELECT count(*) FROM pg_partitioned_table WHERE partdefid <> 0"))
        .isZero();
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid"
                    + " WHERE c.relname = 'constrained' AND p.partstrat = 'r'"))
        .isEqualTo(1);
  }

  @Test
  void detachedPartitionsAreListedCountedOutAndRefuseNewWrites() {
    TableDefinition table = TableDefinition.interval("archived");
    store.createTables(List.of(table), NOW);
    store.write(table, Fixtures.day(1, DAY, V1), NOW);
    store.write(table, Fixtures.day(1, DAY.plus(Duration.ofDays(1)), V1), NOW);
    assertThat(store.partitions().countRowsBelow(table, DAY.plus(Duration.ofDays(1))))
        .isEqualTo(96);
    assertThat(store.partitions().countRowsBelow(table, DAY.plus(Duration.ofDays(2))))
        .isEqualTo(192);

    store.partitions().detach(table, "archived_2026_03_02_0000", DetachMode.PLAIN);

    assertThat(store.partitions().list(table))
        .extracting(PartitionInfo::name, PartitionInfo::state, PartitionInfo::upperBound)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "archived_2026_03_02_0000", PartitionState.DETACHED, DAY.plus(Duration.ofDays(1))),
            org.assertj.core.groups.Tuple.tuple(
                "archived_2026_03_03_0000", PartitionState.ATTACHED, DAY.plus(Duration.ofDays(2))));
    assertThat(store.partitions().countRowsBelow(table, DAY.plus(Duration.ofDays(2))))
        .isEqualTo(96);
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> store.write(table, Fixtures.day(2, DAY, V1), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage()).contains("archived_2026_03_02_0000 is DETACHED", "cold tier");
  }

  @Test
  void refusesToDropAnAttachedPartitionOrANameOfAnotherTable() {
    TableDefinition table = TableDefinition.interval("kept");
    store.createTables(List.of(table), NOW);
    store.partitions().ensure(table, DAY, DAY.plusSeconds(1));
    MeterStoreException attached =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.partitions().drop(table, "kept_2026_03_02_0000"));
    assertThat(attached.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(attached.getMessage()).contains("it is ATTACHED; detach it first");
    MeterStoreException foreign =
        catchThrowableOfType(
            MeterStoreException.class, () -> store.partitions().drop(table, "tables"));
    assertThat(foreign.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(store.partitions().list(table)).hasSize(1);
  }

  @Test
  void refusesPartitionWorkOnATableThatWasNotCreated() {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () ->
                store
                    .partitions()
                    .ensure(TableDefinition.interval("missing"), DAY, DAY.plusSeconds(1)));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(e.getMessage())
        .contains("Table missing does not exist in the hot tier", "'meterstore create'")
        .doesNotContain("createTables");
  }
}
