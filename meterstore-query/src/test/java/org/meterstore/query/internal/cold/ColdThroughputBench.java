package org.meterstore.query.internal.cold;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
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
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.KeyFunction;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.TimeUnit;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.ColdPred;
import org.meterstore.query.internal.cold.unit.ScanPlanner;
import org.meterstore.query.internal.cold.unit.ScanUnit;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * A throwaway measurement, not a test (no assertion; run by hand with {@code -Dtest=
 * ColdThroughputBench -Dbench.meters=..}): cold scan + aggregate rows/s of the executor (elided and
 * resolving, 1 and 2 threads) against Iceberg's generic record reader, on two months of 15-minute
 * readings. Prints to stdout.
 */
@ExtendWith(PostgresExtension.class)
class ColdThroughputBench {
  @TempDir Path warehouse;

  @Test
  void measure(TestDatabase db) {
    int meters = Integer.getInteger("bench.meters", 300);
    try (ColdStore store =
        ColdStore.open(TwoTiers.coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse))) {
      TableDefinition def = TableDefinition.interval("bench");
      ColdTable table = store.createTable(def);
      Instant from = Instant.parse("2025-01-01T00:00:00Z");
      Instant to =
          from.atZone(java.time.ZoneOffset.UTC)
              .plusMonths(Integer.getInteger("bench.months", 2))
              .toInstant();
      long t0 = System.nanoTime();
      table.archive(
          new ArchiveRequest(from, to, to, 1), () -> rows(def, meters, from, to, "20250305000000"));
      System.out.printf("wrote %d meters in %.1f s%n", meters, (System.nanoTime() - t0) / 1e9);
      SnapshotView elided = table.view(org.meterstore.cold.snapshot.SnapshotSelector.current());
      if (!Boolean.getBoolean("bench.skipElided")) {
        point(def, elided, Workload.malo(meters / 2), from);
        run("elided", def, elided);
      }
      if (Boolean.getBoolean("bench.elidedOnly")) {
        return;
      }
      // corrections month by month, a few thousand at a time: the append's duplicate check holds
      // the stored rows of the keys it is given
      for (Instant month = from; month.isBefore(to); ) {
        Instant next = month.atZone(java.time.ZoneOffset.UTC).plusMonths(1).toInstant();
        List<StoredReading> corrections = new ArrayList<>();
        for (int m = 0; m < meters; m += 10) {
          for (Instant t = month; t.isBefore(next); t = t.plus(Duration.ofHours(6))) {
            corrections.add(
                StoredReading.accept(reading(m, t, "9.5", "20250310000000"), to.plusSeconds(3600)));
          }
          if (corrections.size() > 3000) {
            table.appendCorrections(corrections, to.plusSeconds(3600));
            corrections = new ArrayList<>();
          }
        }
        if (!corrections.isEmpty()) {
          table.appendCorrections(corrections, to.plusSeconds(3600));
        }
        month = next;
      }
      run("resolving", def, table.view(org.meterstore.cold.snapshot.SnapshotSelector.current()));
    }
  }

  private static void run(String label, TableDefinition def, SnapshotView view) {
    int malo = ScanColumns.index(def, "malo_id");
    int fromCol = ScanColumns.index(def, "from");
    int value = ScanColumns.index(def, "value");
    ColdAggregation agg =
        new ColdAggregation(
            List.of(Key.plain(malo), new Key(fromCol, KeyFunction.FLOOR, TimeUnit.MONTH)),
            List.of(new Call(Function.SUM, value), new Call(Function.COUNT, -1)));
    ColdRequest request =
        new ColdRequest(
            def, view, Expressions.alwaysTrue(), List.of(), List.of(), true, new int[0]);
    for (int i = 0; i < 5; i++) {
      long t = System.nanoTime();
      List<ScanUnit> units =
          ScanPlanner.plan(request.snapshot(), request.filter(), request.resolve());
      System.out.printf(
          "%s plan: %d units in %.1f ms%n", label, units.size(), (System.nanoTime() - t) / 1e6);
    }
    for (int threads : new int[] {1, 2}) {
      try (ColdExecutor exec = new ColdExecutor(threads, ColdMetrics.NONE)) {
        long rows = 0;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < Integer.getInteger("bench.repeat", 5); i++) {
          long t = System.nanoTime();
          List<Object[]> out = exec.aggregate(request, agg);
          best = Math.min(best, System.nanoTime() - t);
          rows = out.stream().mapToLong(r -> (Long) r[3]).sum();
        }
        System.out.printf(
            "%s aggregate, %d thread(s): %d rows in %.3f s = %.1f M rows/s (%.1f M rows/s per core)%n",
            label, threads, rows, best / 1e9, rows / (best / 1e3), rows / (best / 1e3) / threads);
        long t = System.nanoTime();
        long n = 0;
        try (ColdRows r =
            exec.rows(
                new ColdRequest(
                    def,
                    view,
                    Expressions.alwaysTrue(),
                    List.of(),
                    List.of(),
                    true,
                    new int[] {malo, fromCol, value}))) {
          while (r.hasNext()) {
            r.next();
            n++;
          }
        }
        long d = System.nanoTime() - t;
        System.out.printf(
            "%s rows, %d thread(s): %d rows in %.3f s = %.1f M rows/s%n",
            label, threads, n, d / 1e9, n / (d / 1e3));
      }
    }
    long t = System.nanoTime();
    long n = 0;
    BigDecimal sum = BigDecimal.ZERO;
    try (CloseableIterable<Record> records =
        view.readRecords(Expressions.alwaysTrue(), List.of("malo_id", "from", "value"))) {
      for (Record r : records) {
        sum = sum.add((BigDecimal) r.getField("value"));
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long d = System.nanoTime() - t;
    System.out.printf(
        "%s generic records (1 thread, 3 columns, sum only): %d rows in %.3f s = %.1f M rows/s%n",
        label, n, d / 1e9, n / (d / 1e3));
  }

  /** One location's first month, read columnar: time, rows returned and rows decoded. */
  private static void point(TableDefinition def, SnapshotView view, String malo, Instant from) {
    int maloCol = ScanColumns.index(def, "malo_id");
    int fromCol = ScanColumns.index(def, "from");
    int value = ScanColumns.index(def, "value");
    Instant to = from.atZone(java.time.ZoneOffset.UTC).plusMonths(1).toInstant();
    long micros0 = from.toEpochMilli() * 1000;
    long micros1 = to.toEpochMilli() * 1000;
    ColdRequest request =
        new ColdRequest(
            def,
            view,
            Expressions.and(
                Expressions.equal("malo_id", malo),
                Expressions.and(
                    Expressions.greaterThanOrEqual("from", micros0),
                    Expressions.lessThan("from", micros1))),
            List.of(
                new ColdPred.Cmp(maloCol, ColdPred.Op.EQ, malo),
                new ColdPred.Cmp(fromCol, ColdPred.Op.GE, from.toEpochMilli()),
                new ColdPred.Cmp(fromCol, ColdPred.Op.LT, to.toEpochMilli())),
            List.of(),
            true,
            new int[] {maloCol, fromCol, value});
    long[] counts = new long[2];
    ColdMetrics metrics =
        new ColdMetrics() {
          @Override
          public void rowsRead(String table, String path, String resolution, long rows) {
            counts[0] += rows;
          }

          @Override
          public void rowsDecoded(String table, long rows) {
            counts[1] += rows;
          }
        };
    try (ColdExecutor exec = new ColdExecutor(1, metrics)) {
      long best = Long.MAX_VALUE;
      long n = 0;
      for (int i = 0; i < Integer.getInteger("bench.repeat", 5) * 4; i++) {
        counts[0] = 0;
        counts[1] = 0;
        n = 0;
        long t = System.nanoTime();
        try (ColdRows r = exec.rows(request)) {
          while (r.hasNext()) {
            r.next();
            n++;
          }
        }
        best = Math.min(best, System.nanoTime() - t);
      }
      System.out.printf(
          "point read %s month: %d rows returned, %d read, %d decoded in %.2f ms (best)%n",
          malo, n, counts[0], counts[1], best / 1e6);
    }
  }

  private static Reading reading(int meter, Instant from, String value, String version) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version(version)
        .operator(Workload.OPERATOR)
        .build();
  }

  /** Rows grouped by meter, meters ascending, lazily: the writer streams them. */
  private static Iterator<Object[]> rows(
      TableDefinition def, int meters, Instant from, Instant to, String version) {
    return new Iterator<>() {
      private int meter;
      private Instant t = from;

      @Override
      public boolean hasNext() {
        return meter < meters;
      }

      @Override
      public Object[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        String v = (meter % 7) + "." + (t.getEpochSecond() / 900 % 1000);
        Object[] row = StoredRow.of(def, StoredReading.accept(reading(meter, t, v, version), to));
        t = t.plus(Duration.ofMinutes(15));
        if (!t.isBefore(to)) {
          t = from;
          meter++;
        }
        return row;
      }
    };
  }
}
