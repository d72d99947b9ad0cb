package org.meterstore.query.internal.cold;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Call;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Function;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Key;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.KeyFunction;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.TimeUnit;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Seeded workloads (ADR 0003): meters, days, gas share and correction rate drawn from the seed,
 * around the October DST change; the executor's resolved rows and daily sums per location equal the
 * record path's, on one and on three threads.
 */
@ExtendWith(PostgresExtension.class)
class ColdExecutorSeedsIT {
  @TempDir static Path warehouse;
  private static ColdStore store;

  @BeforeAll
  static void open(TestDatabase db) {
    store = ColdStore.open(TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @ParameterizedTest
  @ValueSource(longs = {3, 17, 29, 101})
  void resolvedRowsAndSumsEqualTheRecordPath(long seed) {
    Random random = new Random(seed);
    TableDefinition def = TableDefinition.interval("seed_" + seed);
    ColdTable table = store.createTable(def);
    Workload w =
        new Workload(
            2 + random.nextInt(5),
            LocalDate.of(2026, 10, 22 + random.nextInt(4)),
            3 + random.nextInt(8),
            1 + random.nextInt(3),
            random.nextDouble() * 0.4,
            0,
            seed);
    ColdData.fill(
        table, w, Instant.parse("2026-10-20T00:00:00Z"), Instant.parse("2026-11-05T00:00:00Z"));
    SnapshotView view = ColdData.view(table);
    List<Object[]> winners =
        ColdData.resolved(ColdData.records(view, def), def, r -> true, r -> true);
    int malo = ScanColumns.index(def, "malo_id");
    int day = ScanColumns.index(def, "balancing_day");
    int value = ScanColumns.index(def, "value");
    Map<String, BigDecimal> sums = new TreeMap<>();
    for (Object[] r : winners) {
      sums.merge(r[malo] + "|" + r[day], (BigDecimal) r[value], BigDecimal::add);
    }
    ColdAggregation daily =
        new ColdAggregation(
            List.of(Key.plain(malo), new Key(day, KeyFunction.FLOOR, TimeUnit.DAY)),
            List.of(new Call(Function.SUM, value)));
    ColdRequest request =
        new ColdRequest(
            def, view, Expressions.alwaysTrue(), List.of(), List.of(), true, ColdData.all(def));
    for (int threads : new int[] {1, 3}) {
      try (ColdExecutor exec = new ColdExecutor(threads, 0, ColdMetrics.NONE)) {
        assertThat(ColdData.canonical(ColdData.drain(exec.rows(request))))
            .isEqualTo(ColdData.canonical(winners));
        Map<String, BigDecimal> got = new TreeMap<>();
        List<Object[]> rows = new ArrayList<>(exec.aggregate(request, daily));
        rows.forEach(r -> got.put(r[0] + "|" + r[1], (BigDecimal) r[2]));
        assertThat(got).isEqualTo(sums);
      }
    }
  }
}
