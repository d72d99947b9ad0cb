package org.meterstore.query.internal.cold;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Call;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Function;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Key;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * The executor where the columnar path does not apply or a long does not suffice: a month with a
 * delete file (written by a foreign engine) is read as records and still resolved exactly; a sum
 * beyond a long stays exact.
 */
@ExtendWith(PostgresExtension.class)
class ColdFallbackIT {
  @TempDir Path warehouse;
  private ColdStore store;
  private final Map<String, LongAdder> rows = new ConcurrentHashMap<>();
  private final ColdMetrics metrics =
      (t, path, resolution, n) ->
          rows.computeIfAbsent(path + "/" + resolution, k -> new LongAdder()).add(n);

  @BeforeEach
  void open(TestDatabase db) {
    store = ColdStore.open(TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void aMonthWithADeleteFileIsReadAsRecordsAndResolved() throws IOException {
    TableDefinition def = TableDefinition.interval("with_deletes");
    ColdTable table = store.createTable(def);
    ColdData.fill(table);
    deleteFirstRowsOfAMarchFile(table.icebergTable(), 50);
    SnapshotView view = ColdData.view(table);
    long stored = 0;
    try (CloseableIterable<FileScanTask> tasks = view.planFiles(Expressions.alwaysTrue())) {
      for (FileScanTask t : tasks) {
        stored += t.file().recordCount();
      }
    }
    assertThat(ColdData.records(view, def)).hasSize((int) stored - 50); // the deletes apply
    List<Object[]> expected =
        ColdData.resolved(ColdData.records(view, def), def, r -> true, r -> true);
    try (ColdExecutor exec = new ColdExecutor(2, metrics)) {
      ColdRequest request =
          new ColdRequest(
              def, view, Expressions.alwaysTrue(), List.of(), List.of(), true, ColdData.all(def));
      List<Object[]> got = ColdData.drain(exec.rows(request));
      assertThat(ColdData.canonical(got)).isEqualTo(ColdData.canonical(expected));
      int value = ScanColumns.index(def, "value");
      List<Object[]> sums =
          exec.aggregate(
              request,
              new ColdAggregation(
                  List.of(Key.plain(ScanColumns.index(def, "malo_id"))),
                  List.of(new Call(Function.SUM, value), new Call(Function.COUNT, -1))));
      assertThat(sums.stream().mapToLong(r -> (Long) r[2]).sum()).isEqualTo(expected.size());
      BigDecimal total =
          expected.stream()
              .map(r -> (BigDecimal) r[value])
              .reduce(BigDecimal.ZERO, BigDecimal::add);
      assertThat(sums.stream().map(r -> (BigDecimal) r[1]).reduce(BigDecimal.ZERO, BigDecimal::add))
          .isEqualByComparingTo(total);
    }
    assertThat(rows).containsKeys("records/resolved", "columnar/resolved");
  }

  @Test
  void aSumBeyondALongStaysExact() {
    TableDefinition def = TableDefinition.interval("big_values");
    ColdTable table = store.createTable(def);
    Instant from = Instant.parse("2026-01-01T00:00:00Z");
    Instant to = Instant.parse("2026-01-02T00:00:00Z");
    List<Object[]> archived = new ArrayList<>();
    for (int q = 0; q < 40; q++) {
      Reading r =
          Reading.builder()
              .malo(Workload.malo(1))
              .obis("1-0:1.8.0")
              .commodity(Commodity.STROM)
              .interval(
                  from.plus(Duration.ofMinutes(15L * q)),
                  from.plus(Duration.ofMinutes(15L * q + 15)))
              .value("999999999999.999999")
              .version("20260105000000")
              .operator(Workload.OPERATOR)
              .build();
      archived.add(StoredRow.of(def, StoredReading.accept(r, to)));
    }
    table.archive(new ArchiveRequest(from, to, to, 1), archived);
    SnapshotView view = ColdData.view(table);
    int value = ScanColumns.index(def, "value");
    try (ColdExecutor exec = new ColdExecutor(2, metrics)) {
      List<Object[]> out =
          exec.aggregate(
              new ColdRequest(
                  def, view, Expressions.alwaysTrue(), List.of(), List.of(), true, new int[0]),
              new ColdAggregation(
                  List.of(),
                  List.of(
                      new Call(Function.SUM, value),
                      new Call(Function.SUM0, value),
                      new Call(Function.MAX, value))));
      assertThat(out.get(0)[0]).isEqualTo(new BigDecimal("39999999999999.999960"));
      assertThat(out.get(0)[1]).isEqualTo(new BigDecimal("39999999999999.999960"));
      assertThat(out.get(0)[2]).isEqualTo(new BigDecimal("999999999999.999999"));
    }
    assertThat(rows).containsKey("columnar/elided");
  }

  /** Deletes the first {@code n} rows of one March data file through a position delete file. */
  private static void deleteFirstRowsOfAMarchFile(Table table, int n) throws IOException {
    FileScanTask target = null;
    try (CloseableIterable<FileScanTask> tasks =
        table
            .newScan()
            .filter(Expressions.lessThan("from", "2026-04-01T00:00:00+00:00"))
            .planFiles()) {
      for (FileScanTask t : tasks) {
        if (t.file().recordCount() > n) {
          target = t;
          break;
        }
      }
    }
    OutputFile out =
        table
            .io()
            .newOutputFile(table.locationProvider().newDataLocation("foreign-deletes.parquet"));
    PositionDeleteWriter<Object> writer =
        Parquet.writeDeletes(out)
            .setAll(table.properties())
            .withSpec(target.spec())
            .withPartition(target.file().partition())
            .overwrite()
            .buildPositionWriter();
    try (writer) {
      PositionDelete<Object> delete = PositionDelete.create();
      for (long pos = 0; pos < n; pos++) {
        writer.write(delete.set(target.file().location(), pos));
      }
    }
    table.newRowDelta().addDeletes(writer.toDeleteFile()).commit();
  }
}
