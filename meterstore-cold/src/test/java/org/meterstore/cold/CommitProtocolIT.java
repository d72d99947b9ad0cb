package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.IcebergColdTable;
import org.meterstore.cold.internal.commit.InterceptingTableOperations;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The commit protocol: strict W advance, refused versus unknown commits, no duplicate rows. */
@ExtendWith(PostgresExtension.class)
class CommitProtocolIT {
  private static final ArchiveRequest WINDOW = new ArchiveRequest(DAY1, DAY2, NOW, 1);

  @TempDir Path warehouse;
  private ColdStore store;
  private ColdStore second;

  @BeforeEach
  void open(TestDatabase db) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
    second = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
  }

  @AfterEach
  void close() {
    store.close();
    second.close();
  }

  private static List<Object[]> rows(TableDefinition def) {
    return ColdFixtures.rows(def, 2, DAY1, DAY2, 60);
  }

  private static void intercept(ColdTable table, InterceptingTableOperations.Interceptor i) {
    ((IcebergColdTable) table).access().decorate(ops -> new InterceptingTableOperations(ops, i));
  }

  @Test
  void twoArchiversRacingOneWindowCommitItOnceAndTheOtherLosesTheRace() throws Exception {
    TableDefinition def = TableDefinition.interval("race");
    ColdTable a = store.createTable(def);
    ColdTable b = second.table(def);
    CyclicBarrier bothWritten = new CyclicBarrier(2);
    AtomicInteger arrivals = new AtomicInteger();
    InterceptingTableOperations.Interceptor meetThenCommit =
        (base, next, commit) -> {
          if (arrivals.incrementAndGet() <= 2) {
            await(bothWritten);
          }
          commit.run();
        };
    intercept(a, meetThenCommit);
    intercept(b, meetThenCommit);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<ArchiveResult> ra = pool.submit(() -> a.archive(WINDOW, rows(def)));
      Future<ArchiveResult> rb = pool.submit(() -> b.archive(WINDOW, rows(def)));
      List<ArchiveStatus> statuses = List.of(ra.get().status(), rb.get().status());
      assertThat(statuses)
          .containsExactlyInAnyOrder(ArchiveStatus.COMMITTED, ArchiveStatus.LOST_RACE);
    } finally {
      pool.shutdownNow();
    }
    assertThat(a.watermark()).isEqualTo(DAY2);
    assertThat(a.snapshots()).hasSize(1);
    assertThat(ColdFixtures.count(a.read())).isEqualTo(rows(def).size());
    assertThat(parquetOnDisk("race")).isEqualTo(referencedFiles(a));
  }

  @Test
  void aStaleArchiverAbortsWithoutWritingWhenTheWinnerAlreadyMovedTheWatermark() {
    TableDefinition def = TableDefinition.interval("stale");
    ColdTable loser = store.createTable(def);
    ColdTable winner = second.table(def);
    intercept(
        loser,
        (base, next, commit) -> {
          winner.archive(WINDOW, rows(def));
          commit.run();
        });

    ArchiveResult result = loser.archive(WINDOW, rows(def));

    assertThat(result.status()).isEqualTo(ArchiveStatus.LOST_RACE);
    assertThat(result.watermark()).isEqualTo(DAY2);
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(ColdFixtures.count(loser.read())).isEqualTo(rows(def).size());
    assertThat(parquetOnDisk("stale")).isEqualTo(referencedFiles(loser));
  }

  @Test
  void anArchiverOvertakenWhileWritingIsRefusedAtTheSwapNotAppendedTwice() {
    TableDefinition def = TableDefinition.interval("overtaken");
    ColdTable loser = store.createTable(def);
    ColdTable winner = second.table(def);
    AtomicInteger iterations = new AtomicInteger();
    // the winner lands after the loser read W and while it writes its files: Iceberg refreshes
    // the loser's base before the swap, so only the swap check stands between it and a window
    // archived twice
    Iterable<Object[]> overtaking =
        () -> {
          if (iterations.incrementAndGet() == 1) {
            winner.archive(WINDOW, rows(def));
          }
          return rows(def).iterator();
        };

    ArchiveResult result = loser.archive(WINDOW, overtaking);

    assertThat(result.status()).isEqualTo(ArchiveStatus.LOST_RACE);
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(loser.snapshots()).hasSize(1);
    assertThat(ColdFixtures.count(loser.read())).isEqualTo(rows(def).size());
    assertThat(parquetOnDisk("overtaken")).isEqualTo(referencedFiles(loser));
  }

  @Test
  void aCommitRefusedByAForeignCommitIsRetriedWithARederivedSummary() {
    TableDefinition def = TableDefinition.interval("rederived");
    ColdTable table = store.createTable(def);
    ColdTable foreign = second.table(def);
    AtomicInteger calls = new AtomicInteger();
    intercept(
        table,
        (base, next, commit) -> {
          if (calls.incrementAndGet() == 1) {
            ForeignEngine.append(
                foreign.icebergTable(), def, ColdFixtures.rows(def, 1, DAY1, DAY2, 60));
          }
          commit.run();
        });

    ArchiveResult result = table.archive(WINDOW, rows(def));

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(table.icebergTable().currentSnapshot().summary())
        .containsEntry(SummaryKeys.ROW_COUNT, Integer.toString(rows(def).size()));
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows(def).size() + 24);
    assertThat(parquetOnDisk("rederived")).isEqualTo(referencedFiles(table));
  }

  @Test
  void aRefusedCommitDeletesItsDataFilesAndGivesUpAfterTheLastAttempt() throws IOException {
    TableDefinition def = TableDefinition.interval("refused");
    ColdTable table = store.createTable(def);
    AtomicInteger attempts = new AtomicInteger();
    intercept(
        table,
        (base, next, commit) -> {
          attempts.incrementAndGet();
          throw new CommitFailedException("refused by the test");
        });

    assertThatThrownBy(() -> table.archive(WINDOW, rows(def)))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
            })
        .hasMessageContaining("refused");
    assertThat(attempts).hasValue(ColdFixtures.FAST.maxAttempts());
    assertThat(parquetOnDisk("refused")).isZero();
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void aCommitThatLandedBeforeItsStateBecameUnknownIsLearnedAndItsFilesKept() {
    TableDefinition def = TableDefinition.interval("unknown_landed");
    ColdTable table = store.createTable(def);
    intercept(
        table,
        (base, next, commit) -> {
          commit.run();
          throw new CommitStateUnknownException(new IOException("connection reset after commit"));
        });

    ArchiveResult result = table.archive(WINDOW, rows(def));

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(result.learnedAfterUnknownState()).isTrue();
    assertThat(result.attempts()).isEqualTo(1);
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows(def).size());
    assertThat(parquetOnDisk("unknown_landed")).isEqualTo(referencedFiles(table)).isPositive();
  }

  @Test
  void aCommitThatDidNotLandIsLearnedItsFilesKeptAndTheNextAttemptCommits() {
    TableDefinition def = TableDefinition.interval("unknown_lost");
    ColdTable table = store.createTable(def);
    AtomicInteger calls = new AtomicInteger();
    intercept(
        table,
        (base, next, commit) -> {
          if (calls.incrementAndGet() == 1) {
            throw new CommitStateUnknownException(new IOException("connection reset"));
          }
          commit.run();
        });

    ArchiveResult result = table.archive(WINDOW, rows(def));

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(result.attempts()).isEqualTo(2);
    assertThat(result.learnedAfterUnknownState()).isTrue();
    assertThat(table.snapshots()).hasSize(1);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows(def).size());
    long referenced = referencedFiles(table);
    assertThat(parquetOnDisk("unknown_lost")).isEqualTo(2 * referenced);
  }

  @Test
  void unknownOnEveryAttemptFailsAndKeepsEveryFileForOrphanRemoval() {
    TableDefinition def = TableDefinition.interval("unknown_always");
    ColdTable table = store.createTable(def);
    intercept(
        table,
        (base, next, commit) -> {
          throw new CommitStateUnknownException(new IOException("catalog unreachable"));
        });

    assertThatThrownBy(() -> table.archive(WINDOW, rows(def)))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE))
        .hasMessageContaining("unknown state");
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
    assertThat(parquetOnDisk("unknown_always")).isEqualTo(ColdFixtures.FAST.maxAttempts());
  }

  @Test
  void anArchiverWhoseLeaseIsLostBeforeCommittingCommitsNothing() {
    TableDefinition def = TableDefinition.interval("lease_lost");
    ColdTable table = store.createTable(def);

    ArchiveResult result = table.archive(WINDOW, rows(def), () -> false);

    assertThat(result.status()).isEqualTo(ArchiveStatus.LEASE_LOST);
    assertThat(result.snapshotId()).isEqualTo(-1);
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
    assertThat(table.snapshots()).isEmpty();
    assertThat(parquetOnDisk("lease_lost")).isZero();
  }

  private long parquetOnDisk(String table) {
    try {
      return JdbcCatalogIT.parquetFiles(warehouse.resolve("meterstore").resolve(table));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static long referencedFiles(ColdTable table) {
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.icebergTable().newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file().location()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files.size();
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(2, TimeUnit.MINUTES);
    } catch (Exception e) {
      throw new IllegalStateException("the racing archiver did not arrive", e);
    }
  }
}
