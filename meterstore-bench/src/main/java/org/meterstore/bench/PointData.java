package org.meterstore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.meterstore.MeterCatalog;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotStore;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * Benchmark 11's deployment, laid out as one gets it with the defaults: the settled history (every
 * reading whose {@code from} lies before {@link #SPLIT}) imported with {@code importHistory}, one
 * file per UTC month; the rest written with {@code MeterTable.append}, a few meter-days per batch
 * (corrections and redeliveries as batches of their own); the default maintenance ({@code runOnce},
 * daily windows, 30-day settlement lag) at {@link #NOW}, which moves W to {@link #W}; then late
 * corrections of February appended (below W: correction files in the cold tier) and one more cycle
 * at {@link #LATER}, which reclaims the archived partitions. Beside it, {@link #PLAIN}: every
 * stored row (all versions) in one table with the hot tier's primary key, vacuumed and analysed.
 * The hot tier is a {@link HotStore} of its own with the default configuration (its pool of {@value
 * HotConfig#DEFAULT_POOL_SIZE} connections serves the catalog's queries).
 */
final class PointData implements AutoCloseable {
  static final TableDefinition TABLE = TableDefinition.interval("point_lastgang");
  static final String PLAIN = "plain_point.readings";

  /** Readings before it are imported, the others appended. */
  static final Instant SPLIT = Instant.parse("2026-03-01T00:00:00Z");

  /** The watermark the maintenance at {@link #NOW} reaches (archival windows are UTC days). */
  static final Instant W = Instant.parse("2026-03-12T00:00:00Z");

  /** W + the settlement lag + 6 h: the window ending at W is due, the next is not. */
  static final Instant NOW = W.plus(TABLE.policy().settlementLag()).plus(Duration.ofHours(6));

  /** After the reader grace: late corrections, the reclaiming cycle and the query clock. */
  static final Instant LATER = NOW.plus(Duration.ofHours(2));

  /** Beyond the last reading's {@code from} when added to {@link #SPLIT}. */
  private static final Duration PAST_THE_END = Duration.ofDays(40);

  private static final double LATE_RATE = 0.03;
  private static final int METERS_PER_BATCH = 8;
  private static final int WRITERS = 2;

  /**
   * Two deliveries: an append below W classifies its readings against what the cold tier stores
   * (twice: {@code append} before writing, then the correction commit), the slowest step here.
   */
  private static final List<Instant> LATE_DELIVERIES =
      List.of(Instant.parse("2026-04-01T05:00:00Z"), Instant.parse("2026-04-07T05:00:00Z"));

  final Dataset data;
  final HotStore hot;
  final MeterCatalog catalog;
  final String[] malos;
  private final Deployment d;
  private final StringBuilder log = new StringBuilder();
  private final List<Object[]> lateRows = new ArrayList<>();
  private String sizes;

  private PointData(Deployment d, PointOptions o, long seed) {
    this.d = d;
    this.data = new Dataset(o.locations(), o.firstDay(), o.days(), 5, 0.03, 0.01, seed);
    this.hot = HotStore.open(HotConfig.of(d.url, "postgres", "postgres"), Deployment.noop());
    this.catalog =
        MeterCatalog.of(hot, d.cold, List.of(TABLE), Deployment.noop(), InstantSource.fixed(LATER));
    this.malos = new String[o.locations()];
    for (int m = 0; m < malos.length; m++) {
      malos[m] = Dataset.malo(m);
    }
  }

  /** Builds both sides in {@code d}; the caller closes the result (the catalog and its store). */
  static PointData build(Deployment d, PointOptions o, long seed) throws Exception {
    PointData p = new PointData(d, o, seed);
    try {
      long started = System.nanoTime();
      p.catalog.createTables(NOW);
      p.createPlain();
      long imported = p.importHistory();
      long appended = p.step("append", p::appendFromSplit);
      p.step("archival", () -> p.maintain(NOW));
      long late = p.step("late corrections", p::appendLateCorrections);
      p.step("reclaim", () -> p.maintain(LATER));
      p.step("baseline", p::finishPlain);
      p.check(imported + appended + late);
      p.sizes =
          String.format(
              Locale.ROOT,
              "%,d locations x %s..%s (15-min, 1/5 gas hourly, 3%% corrections, 1%% redelivered):"
                  + " %,d rows imported, %,d appended, %,d late corrections appended below W = %s",
              p.data.meters(),
              p.data.firstDay(),
              p.data.endDay().minusDays(1),
              imported,
              appended,
              late,
              W);
      p.log.insert(
          0,
          String.format(Locale.ROOT, "prepared in %.0f s (", (System.nanoTime() - started) / 1e9));
      p.log.append(")");
      return p;
    } catch (Exception | Error e) {
      p.close();
      throw e;
    }
  }

  /** What was built, for the results' dataset column. */
  String describe() {
    return sizes;
  }

  /** How long the preparation took, in total and by step. */
  String preparation() {
    return log.toString();
  }

  private interface Step {
    long run() throws Exception;
  }

  private long step(String name, Step step) throws Exception {
    long started = System.nanoTime();
    long n = step.run();
    log.append(
        String.format(
            Locale.ROOT,
            "%s%s %.1f s",
            log.isEmpty() ? "" : ", ",
            name,
            (System.nanoTime() - started) / 1e9));
    System.out.println("point: " + name + " done, " + n);
    return n;
  }

  private void createPlain() throws Exception {
    try (Statement s = d.raw.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS plain_point");
      s.execute(
          "CREATE TABLE "
              + PLAIN
              + " (LIKE "
              + hotTable()
              + " INCLUDING DEFAULTS INCLUDING CONSTRAINTS)");
    }
  }

  private String hotTable() {
    return SqlIdentifiers.quote(hot.schema()) + "." + SqlIdentifiers.quote(TABLE.name());
  }

  /**
   * The history before {@link #SPLIT}, one import per UTC month: each month's CSV file is written
   * on a second thread while the month before is imported, then copied into {@link #PLAIN} by the
   * server and deleted.
   */
  private long importHistory() throws Exception {
    List<Instant> bounds = new ArrayList<>();
    Instant from = MeteringCalendar.dayStart(data.firstDay(), Commodity.STROM);
    bounds.add(from);
    while (from.isBefore(SPLIT)) {
      // the first month starts at 23:00 UTC on the eve of the first day: it runs a month on
      Instant to = Dataset.nextUtcMonth(from.plus(Duration.ofDays(1)));
      from = to.isBefore(SPLIT) ? to : SPLIT;
      bounds.add(from);
    }
    ExecutorService writer = Executors.newSingleThreadExecutor();
    try {
      Future<Long> next = writer.submit(() -> writeCsv(0, bounds));
      long rows = 0;
      for (int i = 0; i + 1 < bounds.size(); i++) {
        long written = next.get();
        int piece = i;
        if (piece + 2 < bounds.size()) {
          next = writer.submit(() -> writeCsv(piece + 1, bounds));
        }
        YearMonth month = YearMonth.from(bounds.get(i + 1).minusSeconds(1).atZone(ZoneOffset.UTC));
        rows += step("import " + month, () -> importFile(scratch(piece), written));
      }
      return rows;
    } finally {
      writer.shutdownNow();
    }
  }

  /** Two scratch files, so one can be written while the other is imported. */
  private Path scratch(int piece) {
    return d.warehouse.resolveSibling("point-import-" + piece % 2 + ".csv");
  }

  private long writeCsv(int piece, List<Instant> bounds) throws Exception {
    Iterable<Object[]> rows = data.rows(TABLE, NOW, bounds.get(piece), bounds.get(piece + 1));
    return ImportBench.writeCsv(scratch(piece), TABLE, rows);
  }

  private long importFile(Path file, long written) throws Exception {
    ImportResult r = catalog.table(TABLE.name()).importHistory(ImportSource.of(file), NOW);
    if (r.rows() != written || r.stored() != written) {
      throw new IllegalStateException("wrote " + written + " rows, the import says " + r);
    }
    try (Statement s = d.raw.createStatement()) {
      s.execute(
          "COPY "
              + PLAIN
              + " ("
              + CopyText.columnList(TABLE)
              + ") FROM '"
              + file.toAbsolutePath().toString().replace("'", "''")
              + "' WITH (FORMAT csv, HEADER true)");
    }
    Files.delete(file);
    return written;
  }

  /**
   * Every reading from {@link #SPLIT} on, by {@value #WRITERS} concurrent writers (as a fleet's
   * ingest workers would; batches of disjoint meters), day by day, {@value #METERS_PER_BATCH}
   * meters per batch: the originals, then their corrections, then the redelivered meter-days once
   * more.
   */
  private long appendFromSplit() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    try {
      List<Future<Long>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> appendAsWriter(writer)));
      }
      long rows = 0;
      for (Future<Long> f : writers) {
        rows += f.get();
      }
      return rows;
    } finally {
      pool.shutdownNow();
    }
  }

  /** The batches of writer {@code writer}: every {@value #WRITERS}-th group of meters. */
  private long appendAsWriter(int writer) {
    long rows = 0;
    LocalDate day = MeteringCalendar.localDay(SPLIT).minusDays(1);
    for (; day.isBefore(data.endDay()); day = day.plusDays(1)) {
      int step = METERS_PER_BATCH * WRITERS;
      for (int m = writer * METERS_PER_BATCH; m < data.meters(); m += step) {
        List<Reading> originals = new ArrayList<>();
        List<Reading> corrections = new ArrayList<>();
        List<Reading> again = new ArrayList<>();
        for (int i = m; i < Math.min(m + METERS_PER_BATCH, data.meters()); i++) {
          Dataset.MeterDay md = data.meterDay(i, day);
          originals.addAll(fromSplit(md.originals()));
          corrections.addAll(fromSplit(md.corrections()));
          again.addAll(md.redelivered() ? fromSplit(md.originals()) : List.of());
        }
        rows += append(originals, NOW) + append(corrections, NOW) + append(again, NOW);
      }
    }
    return rows;
  }

  private static List<Reading> fromSplit(List<Reading> readings) {
    return readings.stream().filter(r -> !r.from().isBefore(SPLIT)).toList();
  }

  private long append(List<Reading> batch, Instant now) {
    return batch.isEmpty() ? 0 : catalog.table(TABLE.name()).append(batch, now).stored();
  }

  /** Maintenance cycles at {@code now} until one archives nothing; returns windows archived. */
  private long maintain(Instant now) {
    long windows = 0;
    for (int cycle = 0; cycle < 100; cycle++) {
      MaintenanceOutcome o = catalog.maintenance().runOnce(now);
      if (!o.healthy()) {
        throw new IllegalStateException("maintenance at " + now + " failed: " + o.rows());
      }
      if (o.windowsArchived() == 0) {
        return windows;
      }
      windows += o.windowsArchived();
    }
    throw new IllegalStateException("maintenance at " + now + " did not finish in 100 cycles");
  }

  /**
   * About {@value #LATE_RATE} of February's readings restated once more, delivered on a few days in
   * April after archival: one {@code append} per delivery, all below W.
   */
  private long appendLateCorrections() throws Exception {
    Map<String, List<Reading>> byDelivery = new TreeMap<>();
    for (LocalDate day = LocalDate.of(2026, 2, 1);
        day.isBefore(LocalDate.of(2026, 3, 1));
        day = day.plusDays(1)) {
      for (int m = 0; m < data.meters(); m++) {
        for (Reading r : data.lateCorrections(m, day, LATE_RATE, LATE_DELIVERIES)) {
          byDelivery.computeIfAbsent(r.version().toString(), k -> new ArrayList<>()).add(r);
        }
      }
    }
    long rows = 0;
    for (List<Reading> batch : byDelivery.values()) {
      rows += append(batch, LATER);
      batch.forEach(r -> lateRows.add(StoredRow.of(TABLE, StoredReading.accept(r, LATER))));
    }
    return rows;
  }

  /**
   * The baseline's rows written by {@code append} (the same readings with the same {@code
   * recorded_at}), its primary key and statistics; the hot partitions' statistics too.
   */
  private long finishPlain() throws Exception {
    String copy = CopyText.copyIn(PLAIN, TABLE);
    long rows = CopyText.copy(d.raw, copy, data.rows(TABLE, NOW, SPLIT, SPLIT.plus(PAST_THE_END)));
    rows += CopyText.copy(d.raw, copy, lateRows);
    try (Statement s = d.raw.createStatement()) {
      s.execute(
          "ALTER TABLE "
              + PLAIN
              + " ADD PRIMARY KEY ("
              + SqlIdentifiers.quoteAll(TABLE.primaryKey())
              + ")");
      s.execute("VACUUM ANALYZE " + PLAIN);
      // as autovacuum would soon after the writes: both sides are measured with statistics
      s.execute("VACUUM ANALYZE " + hotTable());
    }
    return rows;
  }

  /** Both sides hold {@code rows} rows, and W is where the layout puts it. */
  private void check(long rows) throws Exception {
    Instant w = catalog.table(TABLE.name()).watermark();
    if (!W.equals(w)) {
      throw new IllegalStateException("W is " + w + ", expected " + W);
    }
    try (Statement s = d.raw.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + PLAIN)) {
      rs.next();
      if (rs.getLong(1) != rows) {
        throw new IllegalStateException(
            "MeterStore stored " + rows + " rows, the baseline holds " + rs.getLong(1));
      }
    }
  }

  @Override
  public void close() {
    catalog.close();
    hot.close();
  }
}
