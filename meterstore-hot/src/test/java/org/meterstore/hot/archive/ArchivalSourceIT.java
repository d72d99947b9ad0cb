package org.meterstore.hot.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The archival source against a real PostgreSQL: one lease holder at a time across sessions with a
 * growing epoch, a lease that reports itself lost once its backend is terminated, and a keyset walk
 * that returns every row of a detached partition exactly once, in primary-key order, whatever the
 * chunk size.
 */
@ExtendWith(PostgresExtension.class)
class ArchivalSourceIT {
  private static final String V1 = "20260303000000";
  private static final TableDefinition TABLE = TableDefinition.interval("quelle");
  private static HotStore store;
  private final TestDatabase db;

  ArchivalSourceIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, "meterstore", Duration.ofSeconds(1));
    store.createTables(List.of(TABLE), NOW);
    for (int meter = 1; meter <= 7; meter++) {
      store.write(TABLE, Fixtures.day(meter, DAY, V1), NOW);
    }
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void oneSessionHoldsTheLeaseAtATimeAndEachAcquisitionRaisesTheEpoch() {
    ArchivalSource source = store.archival();
    long first;
    try (ArchivalLease lease = source.tryLease(TABLE, "a", NOW).orElseThrow()) {
      first = lease.epoch();
      assertThat(lease.isHeld()).isTrue();
      assertThat(source.tryLease(TABLE, "b", NOW)).isEmpty();
    }
    try (ArchivalLease again = source.tryLease(TABLE, "b", NOW).orElseThrow()) {
      assertThat(again.epoch()).isEqualTo(first + 1);
    }
  }

  @Test
  void aLeaseWhoseBackendIsTerminatedIsNoLongerHeldAndCanBeTakenByAnother() throws SQLException {
    ArchivalSource source = store.archival();
    ArchivalLease lease = source.tryLease(TABLE, "victim", NOW).orElseThrow();
    try (Connection admin = db.connect();
        PreparedStatement s = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
      s.setInt(1, lease.backendPid());
      s.execute();
    }
    Optional<ArchivalLease> taker = Optional.empty();
    for (int i = 0; i < 100 && taker.isEmpty(); i++) {
      taker = source.tryLease(TABLE, "taker", NOW);
    }
    assertThat(taker).isPresent();
    assertThat(taker.get().epoch()).isGreaterThan(lease.epoch());
    assertThat(lease.isHeld()).isFalse();
    lease.close();
    taker.get().close();
  }

  @Test
  void aKeysetWalkReturnsEveryRowOnceInKeyOrderWhateverTheChunkSize() throws SQLException {
    String partition = "quelle_2026_03_02_0000";
    store.partitions().detach(TABLE, partition, DetachMode.PLAIN);
    List<String> expected = new ArrayList<>();
    for (int meter = 1; meter <= 7; meter++) {
      Fixtures.day(meter, DAY, V1)
          .forEach(r -> expected.add(text(StoredRow.of(TABLE, StoredReading.accept(r, NOW)))));
    }
    for (int chunk : new int[] {5, 95, 96, 97, 1000}) {
      List<Integer> chunks = new ArrayList<>();
      Iterable<Object[]> rows = store.archival().rows(TABLE, partition, chunk, chunks::add);
      List<String> seen = new ArrayList<>();
      rows.forEach(r -> seen.add(text(r)));
      assertThat(chunks).hasSize((672 + chunk) / chunk - 1);
      assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
      assertThat(seen).doesNotHaveDuplicates();
      List<String> again = new ArrayList<>();
      rows.forEach(r -> again.add(text(r)));
      assertThat(again).isEqualTo(seen);
    }
    BigDecimal sum = new BigDecimal("7").multiply(new BigDecimal("4.656"));
    assertThat(store.archival().digest(TABLE, partition)).isEqualTo(new ContentDigest(672, sum));
    assertThat(store.archival().recordedArchivalStep(TABLE)).isEqualTo(Duration.ofDays(1));
  }

  /** The row as text, recorded_at excluded (both sides stamp NOW) to compare by value. */
  private static String text(Object[] row) {
    Object[] copy = row.clone();
    for (int i = 0; i < copy.length; i++) {
      if (copy[i] instanceof BigDecimal d) {
        copy[i] = d.stripTrailingZeros().toPlainString();
      } else if (copy[i] instanceof Instant t) {
        copy[i] = t.toString();
      }
    }
    return Arrays.toString(copy);
  }
}
