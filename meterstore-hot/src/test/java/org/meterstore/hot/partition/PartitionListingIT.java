package org.meterstore.hot.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * {@code list} is one consistent view of the catalog: a partition detached (or attached) while it
 * runs appears once, attached or detached, never as both. A query enumerates the partitions it
 * reads this way, so a partition listed twice is read twice: a doubled answer.
 */
@ExtendWith(PostgresExtension.class)
class PartitionListingIT {
  private static HotStore store;

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, "meterstore", Duration.ofSeconds(3));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void aPartitionDetachedAndAttachedWhileTheListIsReadIsListedOnce(TestDatabase db)
      throws Exception {
    TableDefinition table = TableDefinition.interval("listed");
    store.createTables(List.of(table), NOW);
    store.partitions().ensure(table, DAY, DAY.plusSeconds(1));
    String partition = "meterstore.listed_2026_03_02_0000";
    AtomicInteger flips = new AtomicInteger();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    Thread flipper =
        new Thread(
            () -> {
              try (Connection c = db.connect();
                  Statement s = c.createStatement()) {
                while (System.nanoTime() < until) {
                  s.execute("ALTER TABLE meterstore.listed DETACH PARTITION " + partition);
                  s.execute(
                      "ALTER TABLE meterstore.listed ATTACH PARTITION "
                          + partition
                          + " FOR VALUES FROM ('2026-03-02 00:00+00') TO ('2026-03-03 00:00+00')");
                  flips.incrementAndGet();
                }
              } catch (SQLException e) {
                throw new IllegalStateException(e);
              }
            },
            "flipper");
    flipper.start();
    List<List<String>> twice = new ArrayList<>();
    int lists = 0;
    while (flipper.isAlive()) {
      List<String> names =
          store.partitions().list(table).stream().map(PartitionInfo::name).toList();
      lists++;
      if (new HashSet<>(names).size() != names.size()) {
        twice.add(names);
      }
    }
    flipper.join();

    assertThat(flips.get()).isPositive();
    assertThat(lists).isPositive();
    assertThat(twice).as("listings (of %d) naming a partition twice", lists).isEmpty();
    assertThat(store.partitions().list(table)).hasSize(1);
  }

  /**
   * Bounds are kept by the partition's catalog row version: a partition detached and attached again
   * with other bounds (the same table, the same oid) is listed with its new bounds, and a partition
   * dropped and created again under its name with its own.
   */
  @Test
  void aPartitionAttachedAgainWithOtherBoundsIsListedWithTheNewOnes(TestDatabase db)
      throws Exception {
    TableDefinition table = TableDefinition.interval("rebound");
    store.createTables(List.of(table), NOW);
    store.partitions().ensure(table, DAY, DAY.plusSeconds(1));
    String partition = "meterstore.rebound_2026_03_02_0000";
    PartitionInfo before = store.partitions().list(table).get(0);
    assertThat(before.upperBound()).isEqualTo(DAY.plus(Duration.ofDays(1)));
    assertThat(store.partitions().list(table)).containsExactly(before); // from the kept bounds
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("ALTER TABLE meterstore.rebound DETACH PARTITION " + partition);
      s.execute(
          "ALTER TABLE meterstore.rebound ATTACH PARTITION "
              + partition
              + " FOR VALUES FROM ('2026-03-02 00:00+00') TO ('2026-03-02 12:00+00')");
    }
    PartitionInfo after = store.partitions().list(table).get(0);
    assertThat(after.name()).isEqualTo(before.name());
    assertThat(after.state()).isEqualTo(PartitionState.ATTACHED);
    assertThat(after.upperBound()).isEqualTo(DAY.plus(Duration.ofHours(12)));
    assertThat(store.partitions().list(table)).containsExactly(after);
  }
}
