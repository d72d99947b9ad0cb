package org.meterstore.query.internal.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnBatchReader;
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
import org.meterstore.query.internal.cold.filter.ColdPred;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The executor against real Iceberg tables with real Parquet files: its rows and aggregates equal
 * the generic record path's answer resolved with VersionOrder, on data with corrections inside
 * files and across files, DST and gas days, two months and null columns.
 */
@ExtendWith(PostgresExtension.class)
class ColdExecutorIT {
  @TempDir static Path warehouse;
  private static ColdStore store;
  private static ColdTable table;
  private static TableDefinition def;
  private static final Map<String, LongAdder> ROWS = new ConcurrentHashMap<>();
  private static final ColdMetrics METRICS =
      (t, path, resolution, rows) ->
          ROWS.computeIfAbsent(path + "/" + resolution, k -> new LongAdder()).add(rows);

  @BeforeAll
  static void fill(TestDatabase db) {
    store = ColdStore.open(TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse));
    def = TableDefinition.interval("lastgang");
    table = store.createTable(def);
    ColdData.fill(table);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  private static int col(String name) {
    return ScanColumns.index(def, name);
  }

  private static ColdRequest request(
      SnapshotView view, List<ColdPred> before, List<ColdPred> after, boolean resolve, int[] cols) {
    return new ColdRequest(def, view, Expressions.alwaysTrue(), before, after, resolve, cols);
  }

  @Test
  void resolvedRowsEqualTheRecordPath() {
    SnapshotView view = ColdData.view(table);
    List<Object[]> expected =
        ColdData.resolved(ColdData.records(view, def), def, r -> true, r -> true);
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      List<Object[]> rows =
          ColdData.drain(exec.rows(request(view, List.of(), List.of(), true, ColdData.all(def))));
      assertThat(ColdData.canonical(rows)).isEqualTo(ColdData.canonical(expected));
    }
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(ROWS).containsKey("columnar/resolved");
  }

  @Test
  void everyVersionWithoutResolution() {
    SnapshotView view = ColdData.view(table);
    List<Object[]> all = ColdData.records(view, def);
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      List<Object[]> rows =
          ColdData.drain(exec.rows(request(view, List.of(), List.of(), false, ColdData.all(def))));
      assertThat(ColdData.canonical(rows)).isEqualTo(ColdData.canonical(all));
    }
  }

  @Test
  void predicatesActBeforeAndAfterResolution() {
    SnapshotView view = ColdData.view(table);
    String malo = (String) ColdData.records(view, def).get(0)[col("malo_id")];
    BigDecimal limit = new BigDecimal("1.2");
    List<ColdPred> before = List.of(new ColdPred.Cmp(col("malo_id"), ColdPred.Op.NE, malo));
    List<ColdPred> after =
        List.of(
            new ColdPred.Or(
                List.of(
                    new ColdPred.Cmp(col("value"), ColdPred.Op.GT, limit),
                    new ColdPred.IsNull(col("melo_id"), false))));
    List<Object[]> expected =
        ColdData.resolved(
            ColdData.records(view, def),
            def,
            r -> !malo.equals(r[col("malo_id")]),
            r -> ((BigDecimal) r[col("value")]).compareTo(limit) > 0 || r[col("melo_id")] == null);
    int[] cols = {col("malo_id"), col("from"), col("value"), col("version")};
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      List<Object[]> rows = ColdData.drain(exec.rows(request(view, before, after, true, cols)));
      assertThat(ColdData.canonical(rows, cols)).isEqualTo(ColdData.canonical(expected, cols));
    }
    // a predicate that is not about the merge key, wrongly applied before resolution, differs
    List<Object[]> wrong =
        ColdData.resolved(
            ColdData.records(view, def),
            def,
            r -> ((BigDecimal) r[col("value")]).compareTo(limit) > 0,
            r -> true);
    assertThat(ColdData.canonical(wrong, cols)).isNotEqualTo(ColdData.canonical(expected, cols));
  }

  @Test
  void aggregatesEqualTheRecordPath() {
    SnapshotView view = ColdData.view(table);
    List<Object[]> winners =
        ColdData.resolved(ColdData.records(view, def), def, r -> true, r -> true);
    ColdAggregation agg =
        new ColdAggregation(
            List.of(
                Key.plain(col("malo_id")), new Key(col("from"), KeyFunction.FLOOR, TimeUnit.MONTH)),
            List.of(
                new Call(Function.SUM, col("value")),
                new Call(Function.SUM0, col("value")),
                new Call(Function.COUNT, -1),
                new Call(Function.COUNT, col("melo_id")),
                new Call(Function.MIN, col("from")),
                new Call(Function.MAX, col("value")),
                new Call(Function.MAX, col("balancing_day"))));
    Map<String, Object[]> expected = new TreeMap<>();
    for (Object[] r : winners) {
      long from = (Long) r[col("from")];
      java.time.LocalDate d = java.time.LocalDate.ofEpochDay(Math.floorDiv(from, 86_400_000L));
      long month = d.withDayOfMonth(1).toEpochDay() * 86_400_000L;
      String key = r[col("malo_id")] + "|" + month;
      Object[] acc =
          expected.computeIfAbsent(
              key,
              k ->
                  new Object[] {
                    r[col("malo_id")],
                    month,
                    BigDecimal.ZERO.setScale(6),
                    null,
                    0L,
                    0L,
                    null,
                    null,
                    null
                  });
      BigDecimal v = (BigDecimal) r[col("value")];
      acc[2] = ((BigDecimal) acc[2]).add(v);
      acc[3] = acc[2];
      acc[4] = (Long) acc[4] + 1;
      acc[5] = (Long) acc[5] + (r[col("melo_id")] == null ? 0 : 1);
      acc[6] = acc[6] == null ? from : Math.min((Long) acc[6], from);
      acc[7] = acc[7] == null || v.compareTo((BigDecimal) acc[7]) > 0 ? v : acc[7];
      Integer day = (Integer) r[col("balancing_day")];
      acc[8] = acc[8] == null || day > (Integer) acc[8] ? day : acc[8];
    }
    List<Object[]> expectedRows = new ArrayList<>();
    for (Object[] a : expected.values()) {
      expectedRows.add(new Object[] {a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]});
    }
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      List<Object[]> rows =
          exec.aggregate(request(view, List.of(), List.of(), true, new int[0]), agg);
      assertThat(ColdData.canonical(rows)).isEqualTo(ColdData.canonical(expectedRows));
      assertThat(rows).hasSize(12).allSatisfy(r -> assertThat(r[1]).isInstanceOf(Long.class));
      assertThat(rows.get(0)[8]).isInstanceOf(Integer.class);
    }
  }

  @Test
  void extractAndNoKeysAndSqlNulls() {
    SnapshotView view = ColdData.view(table);
    List<Object[]> winners =
        ColdData.resolved(ColdData.records(view, def), def, r -> true, r -> true);
    ColdAggregation byHour =
        new ColdAggregation(
            List.of(
                new Key(col("from"), KeyFunction.EXTRACT, TimeUnit.HOUR),
                Key.plain(col("melo_id"))),
            List.of(new Call(Function.COUNT, -1)));
    Map<Long, Long> hours = new TreeMap<>();
    for (Object[] r : winners) {
      hours.merge(Math.floorMod((Long) r[col("from")], 86_400_000L) / 3_600_000L, 1L, Long::sum);
    }
    ColdAggregation none =
        new ColdAggregation(
            List.of(),
            List.of(
                new Call(Function.SUM, col("value")),
                new Call(Function.SUM0, col("value")),
                new Call(Function.COUNT, -1),
                new Call(Function.MIN, col("to"))));
    BigDecimal total =
        winners.stream()
            .map(r -> (BigDecimal) r[col("value")])
            .reduce(BigDecimal.ZERO, BigDecimal::add);
    List<ColdPred> nothing = List.of(new ColdPred.IsNull(col("malo_id"), false));
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      Map<Long, Long> got = new TreeMap<>();
      for (Object[] r :
          exec.aggregate(request(view, List.of(), List.of(), true, new int[0]), byHour)) {
        assertThat(r[1]).isNull(); // a null key is a group of its own
        got.put((Long) r[0], (Long) r[2]);
      }
      assertThat(got).isEqualTo(hours).hasSize(24);
      List<Object[]> one =
          exec.aggregate(request(view, List.of(), List.of(), true, new int[0]), none);
      assertThat(one).hasSize(1);
      assertThat((BigDecimal) one.get(0)[0]).isEqualByComparingTo(total);
      assertThat(one.get(0)[2]).isEqualTo((long) winners.size());
      List<Object[]> empty =
          exec.aggregate(request(view, nothing, List.of(), true, new int[0]), none);
      assertThat(empty).hasSize(1);
      assertThat(empty.get(0)).containsExactly(null, new BigDecimal("0.000000"), 0L, null);
    }
  }

  @Test
  void parallelWorkLeavesNoThreadAfterClose() {
    SnapshotView view = ColdData.view(table);
    ColdExecutor exec = new ColdExecutor(2, 0, METRICS);
    assertThat(coldThreads()).isZero(); // lazily: no thread before the first scan
    ColdRows rows = exec.rows(request(view, List.of(), List.of(), false, ColdData.all(def)));
    assertThat(rows.hasNext()).isTrue();
    rows.close(); // stopped halfway
    exec.aggregate(
        request(view, List.of(), List.of(), true, new int[0]),
        new ColdAggregation(List.of(), List.of(new Call(Function.COUNT, -1))));
    exec.close();
    assertThat(coldThreads()).isZero();
  }

  @Test
  void aReadOfOneLocationRunsOnTheCallersThreadAndAnswersAsThePoolDoes() {
    SnapshotView view = ColdData.view(table);
    String malo = org.meterstore.testing.workload.Workload.malo(3);
    ColdRequest r =
        new ColdRequest(
            def,
            view,
            Expressions.equal("malo_id", malo),
            List.of(new ColdPred.Cmp(0, ColdPred.Op.EQ, malo)),
            List.of(),
            true,
            ColdData.all(def));
    List<Object[]> pooled;
    try (ColdExecutor pool = new ColdExecutor(2, 0, METRICS)) {
      pooled = ColdData.drain(pool.rows(r));
    }
    assertThat(coldThreads()).isZero();
    try (ColdExecutor exec = new ColdExecutor(2, METRICS)) {
      List<Object[]> inline = ColdData.drain(exec.rows(r));
      assertThat(coldThreads()).as("a point read never waits for the pool").isZero();
      assertThat(ColdData.canonical(inline)).isEqualTo(ColdData.canonical(pooled)).isNotEmpty();
    }
  }

  @Test
  void aMissingFileIsARetryableStorageError() throws Exception {
    TableDefinition broken = TableDefinition.interval("broken");
    ColdTable t = store.createTable(broken);
    ColdData.fill(t);
    SnapshotView view = ColdData.view(t);
    String location;
    try (CloseableIterable<FileScanTask> tasks = view.planFiles(Expressions.alwaysTrue())) {
      location = tasks.iterator().next().file().location();
    }
    java.nio.file.Files.delete(Path.of(java.net.URI.create(location)));
    ColdRequest r =
        new ColdRequest(
            broken, view, Expressions.alwaysTrue(), List.of(), List.of(), true, new int[] {0});
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      assertThatThrownBy(
              () ->
                  exec.aggregate(
                      r, new ColdAggregation(List.of(), List.of(new Call(Function.COUNT, -1)))))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
                assertThat(e.isRetryable()).isTrue();
                assertThat(e.getMessage()).contains("broken");
              });
      assertThatThrownBy(() -> ColdData.drain(exec.rows(r)))
          .isInstanceOf(MeterStoreException.class);
    }
    assertThat(coldThreads()).isZero();
  }

  @Test
  void theReaderSkipsRowGroupsByTheResidualFilter() {
    TableDefinition small = TableDefinition.interval("small_groups");
    ColdTable t = store.createTable(small);
    t.icebergTable().updateProperties().set("write.parquet.row-group-size-bytes", "4096").commit();
    ColdData.fill(t);
    SnapshotView view = ColdData.view(t);
    String malo = org.meterstore.testing.workload.Workload.malo(4);
    int skipped = 0;
    long rows = 0;
    try (CloseableIterable<FileScanTask> tasks =
        view.planFiles(Expressions.equal("malo_id", malo))) {
      for (FileScanTask task : tasks) {
        try (ColumnBatchReader reader = view.openBatches(task, List.of("malo_id", "value"), 1000)) {
          for (ColumnBatch b = reader.next(); b != null; b = reader.next()) {
            rows += b.size();
          }
          skipped += reader.rowGroupsSkipped();
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    long all = ColdData.records(view, small).size();
    long matching = ColdData.records(view, small).stream().filter(r -> malo.equals(r[0])).count();
    assertThat(skipped).isPositive();
    assertThat(rows).isGreaterThanOrEqualTo(matching).isLessThan(all);
    // and the executor's answer is unchanged by the skipping
    List<ColdPred> before = List.of(new ColdPred.Cmp(0, ColdPred.Op.EQ, malo));
    try (ColdExecutor exec = new ColdExecutor(2, 0, METRICS)) {
      ColdRequest r =
          new ColdRequest(
              small,
              view,
              Expressions.equal("malo_id", malo),
              before,
              List.of(),
              true,
              ColdData.all(small));
      List<Object[]> got = ColdData.drain(exec.rows(r));
      List<Object[]> expected =
          ColdData.resolved(
              ColdData.records(view, small), small, x -> malo.equals(x[0]), x -> true);
      assertThat(ColdData.canonical(got)).isEqualTo(ColdData.canonical(expected)).isNotEmpty();
    }
  }

  static long coldThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .map(Thread::getName)
        .filter(Objects::nonNull)
        .filter(n -> n.startsWith("meterstore-query-cold-"))
        .count();
  }
}
