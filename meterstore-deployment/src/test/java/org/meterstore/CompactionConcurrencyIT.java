package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.CompactionResult;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.IcebergColdTable;
import org.meterstore.cold.internal.commit.InterceptingTableOperations;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * Compaction against everything else that touches a cold table: a reader pinned to the snapshot
 * before it, another replica's archival loop and late corrections committed while it runs; and a
 * foreign commit injected between planning and committing, once (the rewrite is planned again and
 * lands) and on every attempt (it gives up, committing nothing and leaving no file behind).
 */
@ExtendWith(PostgresExtension.class)
class CompactionConcurrencyIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant WRITTEN = Instant.parse("2026-02-20T00:00:00Z");
  private static final String JANUARY = "from_month=2026-01";

  @TempDir Path warehouse;

  /** A table whose January is archived day by day (W in February), with late corrections. */
  private record Setup(
      TableDefinition table,
      MeterCatalog catalog,
      ReferenceModel model,
      List<List<Reading>> laterCorrections,
      Instant now)
      implements AutoCloseable {
    @Override
    public void close() {
      catalog.close();
    }
  }

  private static Setup setUp(CatalogFixture d, String name, int hotDays) {
    TableDefinition table = CatalogFixture.table(name, LAG, GRACE);
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    ReferenceModel model = new ReferenceModel(table);
    Workload workload = new Workload(6, LocalDate.of(2026, 1, 24), 11 + hotDays, 0, 0.05, 0.0, 9);
    d.create(List.of(table), WRITTEN);
    CompactionFixture.Split split = CompactionFixture.split(workload);
    CompactionFixture.writeHot(d, table, split.originals(), model, WRITTEN);
    Instant now =
        CompactionFixture.archiveDaily(
            catalog.maintenance().compact(false),
            table,
            LocalDate.of(2026, 1, 24),
            LocalDate.of(2026, 2, 4));
    int half = split.corrections().size() / 2;
    CompactionFixture.appendCorrections(
        catalog, table, split.corrections().subList(0, half), model, 2, now);
    // the rest, January's readings only: appended while compaction runs, always below W
    Instant february = Instant.parse("2026-02-01T00:00:00Z");
    List<List<Reading>> later = new ArrayList<>();
    for (List<Reading> batch : split.corrections().subList(half, split.corrections().size())) {
      List<Reading> january = batch.stream().filter(r -> r.from().isBefore(february)).toList();
      if (!january.isEmpty()) {
        later.add(january);
      }
    }
    return new Setup(table, catalog, model, later, now);
  }

  @Test
  void aPinnedReaderAnotherArchiverAndLateCorrectionsSeeEveryAnswerKept(TestDatabase db)
      throws Exception {
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        Setup s = setUp(d, "busy", 4)) {
      MeterCatalog busy = s.catalog();
      ColdTable cold = d.cold.table(s.table());
      long pinned = cold.icebergTable().currentSnapshot().snapshotId();
      List<String> pinnedRows = CompactionFixture.rows(cold.readSnapshot(pinned));
      MaintenanceBuilder compacting = busy.maintenance().holder("compactor").compact(true);
      MaintenanceBuilder archiving = busy.maintenance().holder("other-replica").compact(false);
      AtomicBoolean done = new AtomicBoolean();
      AtomicInteger reads = new AtomicInteger();
      List<TableOutcome> rows = java.util.Collections.synchronizedList(new ArrayList<>());

      CompletableFuture<Void> reader =
          CompletableFuture.runAsync(
              () -> {
                while (!done.get()) {
                  assertThat(CompactionFixture.rows(cold.readSnapshot(pinned)))
                      .isEqualTo(pinnedRows);
                  reads.incrementAndGet();
                }
              });
      CompletableFuture<Void> other =
          CompletableFuture.runAsync(
              () -> {
                for (int i = 0; i < 4; i++) {
                  Instant at = s.now().plus(Duration.ofDays(i + 1));
                  rows.add(archiving.runOnce(at).row(s.table().name()).orElseThrow());
                }
              });
      CompletableFuture<Void> corrections =
          CompletableFuture.runAsync(
              () -> {
                for (List<Reading> batch : s.laterCorrections()) {
                  Instant at = s.now().plusSeconds(3600);
                  busy.table(s.table().name()).append(batch, at);
                  s.model().write(batch, at);
                }
              });
      for (int i = 0; i < 4; i++) {
        rows.add(
            compacting
                .runOnce(s.now().plus(Duration.ofHours(12 + 24L * i)))
                .row(s.table().name())
                .orElseThrow());
      }
      CompletableFuture.allOf(other, corrections).get(5, TimeUnit.MINUTES);
      // settle: the last cycles see no concurrent commit
      Instant last = s.now().plus(Duration.ofDays(5));
      for (int i = 0; i < 3; i++) {
        rows.add(compacting.runOnce(last.plusSeconds(i)).row(s.table().name()).orElseThrow());
      }
      done.set(true);
      reader.get(1, TimeUnit.MINUTES);

      assertThat(reads.get()).isPositive();
      for (TableOutcome row : rows) {
        row.failure()
            .ifPresent(
                f -> {
                  assertThat(f.kind()).as(f.getMessage()).isEqualTo(ErrorKind.STORAGE);
                  assertThat(f.isRetryable()).isTrue();
                });
        assertThat(row.invariantViolations().orElse(0)).isZero();
      }
      assertThat(cold.snapshots()).anyMatch(x -> "compact".equals(x.meterstoreOperation()));
      assertThat(CompactionFixture.liveFiles(cold).get(JANUARY)).hasSize(1);
      assertThat(CompactionFixture.rows(cold.readSnapshot(pinned))).isEqualTo(pinnedRows);
      CompactionFixture.assertWatermarkNeverMovedBack(cold);
      assertThat(cold.watermark()).isAfter(Instant.parse("2026-02-05T00:00:00Z"));
      ModelQuery.assertAgrees(busy, s.table(), s.model());
    }
  }

  @Test
  void aForeignCommitBeforeTheSwapMakesTheRewritePlanAgainAndLand(TestDatabase db)
      throws Exception {
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        Setup s = setUp(d, "foreign_once", 0)) {
      ColdTable cold = d.cold.table(s.table());
      Instant w = cold.watermark();
      List<String> rows = CompactionFixture.rows(cold.read());
      AtomicInteger injected = new AtomicInteger();
      intercept(cold, d, s.table(), injected, 1);

      CompactionResult result = cold.compact(s.now(), 7, 12, () -> true);

      assertThat(result.status()).isEqualTo(CompactionResult.Status.COMMITTED);
      assertThat(result.attempts()).isEqualTo(2);
      assertThat(injected.get()).isEqualTo(1);
      Snapshot current = cold.icebergTable().currentSnapshot();
      assertThat(current.snapshotId()).isEqualTo(result.snapshotId());
      assertThat(current.summary())
          .containsEntry(SummaryKeys.WATERMARK, w.toString())
          .containsEntry(SummaryKeys.OPERATION, "compact")
          .containsEntry(SummaryKeys.LEASE_EPOCH, "7");
      assertThat(current.parentId()).as("planned again on the foreign snapshot").isNotNull();
      assertThat(cold.icebergTable().snapshot(current.parentId()).summary())
          .doesNotContainKey(SummaryKeys.WATERMARK);
      assertThat(cold.watermark()).isEqualTo(w);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rows);
      assertThat(CompactionFixture.liveFiles(cold).get(JANUARY)).hasSize(1);
    }
  }

  @Test
  void aCommitThatMovesWAfterPlanningIsNotRebasedOnWithTheOldW(TestDatabase db) throws Exception {
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        Setup s = setUp(d, "moved_w", 0)) {
      ColdTable cold = d.cold.table(s.table());
      Instant w = cold.watermark();
      Instant later = w.plus(Duration.ofDays(1));
      List<String> rows = CompactionFixture.rows(cold.read());
      AtomicInteger asked = new AtomicInteger();
      // between writing the new files and committing them (where the lease is asked), a commit
      // moves W, as an archival commit of another process would: Iceberg would re-apply the
      // rewrite onto it with the W read at planning
      CompactionResult result =
          cold.compact(
              s.now(),
              7,
              12,
              () -> {
                if (asked.getAndIncrement() == 0) {
                  d.cold
                      .table(s.table())
                      .icebergTable()
                      .newFastAppend()
                      .set(SummaryKeys.WATERMARK, later.toString())
                      .commit();
                }
                return true;
              });

      assertThat(result.status()).isEqualTo(CompactionResult.Status.COMMITTED);
      assertThat(result.attempts()).isEqualTo(2);
      assertThat(result.watermark()).isEqualTo(later);
      assertThat(cold.icebergTable().currentSnapshot().summary())
          .containsEntry(SummaryKeys.WATERMARK, later.toString());
      assertThat(cold.watermark()).isEqualTo(later);
      CompactionFixture.assertWatermarkNeverMovedBack(cold);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rows);
    }
  }

  @Test
  void aForeignCommitBeforeEverySwapMakesItGiveUpLeavingNothing(TestDatabase db) throws Exception {
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        Setup s = setUp(d, "foreign_always", 0)) {
      ColdTable cold = d.cold.table(s.table());
      Instant w = cold.watermark();
      List<String> rows = CompactionFixture.rows(cold.read());
      List<Path> filesBefore = dataFiles(s.table());
      AtomicInteger injected = new AtomicInteger();
      intercept(cold, d, s.table(), injected, Integer.MAX_VALUE);

      assertThatThrownBy(() -> cold.compact(s.now(), 7, 12, () -> true))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
                assertThat(e.isRetryable()).isTrue();
              })
          .hasMessageContaining("Cannot compact cold table foreign_always");

      assertThat(injected.get()).isEqualTo(TwoTiersPolicy.ATTEMPTS);
      assertThat(cold.snapshots()).noneMatch(x -> "compact".equals(x.meterstoreOperation()));
      assertThat(dataFiles(s.table())).as("new files deleted").isEqualTo(filesBefore);
      assertThat(cold.watermark()).isEqualTo(w);
      assertThat(CompactionFixture.rows(cold.read())).isEqualTo(rows);
    }
  }

  /** The commit policy of the fixture's cold store. */
  private static final class TwoTiersPolicy {
    static final int ATTEMPTS = CatalogFixture.FAST.maxAttempts();
  }

  /**
   * Before each of the first {@code times} compaction swaps, another engine commits an empty append
   * (no watermark) to the table, so the swap's base is stale.
   */
  private static void intercept(
      ColdTable cold, CatalogFixture d, TableDefinition table, AtomicInteger injected, int times) {
    ((IcebergColdTable) cold)
        .access()
        .decorate(
            ops ->
                new InterceptingTableOperations(
                    ops,
                    (base, next, commit) -> {
                      Snapshot s = next.currentSnapshot();
                      boolean compaction =
                          s != null && "compact".equals(s.summary().get(SummaryKeys.OPERATION));
                      if (compaction && injected.get() < times) {
                        injected.incrementAndGet();
                        d.cold.table(table).icebergTable().newFastAppend().commit();
                      }
                      commit.run();
                    }));
  }

  private List<Path> dataFiles(TableDefinition table) throws IOException {
    try (Stream<Path> files = Files.walk(warehouse)) {
      return files
          .filter(p -> p.toString().endsWith(".parquet"))
          .filter(p -> p.toString().contains("/" + table.name() + "/"))
          .sorted()
          .toList();
    }
  }
}
