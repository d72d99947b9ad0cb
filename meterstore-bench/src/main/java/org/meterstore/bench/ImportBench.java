package org.meterstore.bench;

import io.opentelemetry.api.OpenTelemetry;
import java.io.BufferedWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.meterstore.MeterCatalog;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportCursor;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;

/**
 * Benchmark 10, history import: {@code MeterTable.importHistory} of one month of the data set (the
 * profile's ingest meters, one fifth gas, 3 % corrections in the same file) from a CSV file in the
 * storage model's columns into an empty table: both passes (check, then chunked commits), parsing,
 * validation, classification, sorted Parquet, the Iceberg commits and their digests. Against DuckDB
 * reading the same CSV file and writing it as one Parquet file on one thread (no checks, no sort,
 * no commit). Both sides run before they are timed: DuckDB once (it loads its engine), MeterStore
 * until at least {@value #WARM_ROWS} readings were imported into tables of their own and the JIT
 * compiler took at most {@value #JIT_SETTLED} of the last such import's CPU (at most {@value
 * #WARM_ROWS_MAX} readings; the first import in the fresh JVM is its own line). Each side is timed
 * over at least {@value #TIMED_ROWS} readings (the file's import or copy repeated). A further line
 * times the check pass alone after the import (every record parsed and validated, nothing written),
 * and one the retained heap.
 */
final class ImportBench {
  static final TableDefinition TABLE = TableDefinition.interval("history");
  private static final LocalDate FIRST = LocalDate.of(2026, 1, 1);
  private static final int DAYS = 31;
  private static final Instant NOW = Instant.parse("2026-04-01T00:00:00Z");

  /**
   * Readings imported before the timed import at least (a whole number of the file's imports, >=
   * 1); more follow until the JIT compiler has settled, up to {@link #WARM_ROWS_MAX}.
   */
  static final long WARM_ROWS = 10_000_000;

  /**
   * Readings each side is timed over at least: the file's import (and DuckDB's copy, and the check
   * pass) run that many times over and summed. A {@code quick} month's import lasts under a second,
   * of which the compiler, still at work now and then, took up to half in single runs.
   */
  static final long TIMED_ROWS = 2_500_000;

  /** Readings imported before the timed import at most, settled or not. */
  static final long WARM_ROWS_MAX = 50_000_000;

  /**
   * The JIT compilers' share of an import's JVM CPU seconds at or below which they count as
   * settled. On two cores the compiler threads take their CPU from the import: the first imports of
   * a full month spend 3 of their 11 CPU-seconds compiling, and the share falls below a tenth only
   * after some 15 to 40 million readings (code that runs once per commit or per file reaches the
   * compiler's thresholds slowly).
   */
  static final double JIT_SETTLED = 0.10;

  private ImportBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    int meters = p.ingestMeters();
    Dataset data = new Dataset(meters, FIRST, DAYS, 5, 0.03, 0, p.seed());
    Instant from = MeteringCalendar.dayStart(FIRST, Commodity.STROM);
    Instant to = MeteringCalendar.dayStart(FIRST.plusDays(DAYS - 1), Commodity.STROM);
    Path csv = d.warehouse.resolveSibling("import.csv");
    long rows = writeCsv(csv, data.rows(TABLE, NOW, from, to));
    duckDb(csv, d.warehouse); // warm: its first run loads the engine
    int repeats = (int) Math.max(1, (TIMED_ROWS + rows - 1) / rows);
    Timing.Measured duck = null;
    for (int k = 0; k < repeats; k++) {
      duck = plus(duck, Timing.measure(d.cpu, () -> duckDb(csv, d.warehouse)));
    }
    // the first import in this JVM compiles the import's code as it goes (its own line); the
    // timed one follows at least WARM_ROWS readings of imports into tables of their own and an
    // import in which the compiler had settled, as an import of years runs once its first tens of
    // millions of readings are behind it
    Timing.Measured first = importInto(d, TableDefinition.interval("history_warm_0"), csv, null);
    Timing.Measured warm = first;
    int warmUps = 1;
    for (long warmed = rows;
        warmed < WARM_ROWS_MAX && (warmed < WARM_ROWS || !settled(warm));
        warmed += rows) {
      warm = importInto(d, TableDefinition.interval("history_warm_" + warmUps++), csv, null);
    }
    AtomicReference<ImportResult> result = new AtomicReference<>();
    Timing.Measured imported = importInto(d, TABLE, csv, result);
    for (int k = 1; k < repeats; k++) {
      imported = imported.plus(importInto(d, TableDefinition.interval("history_" + k), csv, null));
    }
    Timing.Measured check = null;
    for (int k = 0; k < repeats; k++) {
      check = plus(check, Timing.measure(d.cpu, () -> checkPass(csv)));
    }
    ImportResult r = result.get();
    if (r.rows() != rows
        || r.stored() != rows
        || imported.count() != rows * repeats
        || duck.count() != rows * repeats
        || check.count() != rows * repeats
        || first.count() != rows) {
      throw new IllegalStateException(
          "wrote "
              + rows
              + " rows, DuckDB copied "
              + duck.count()
              + ", the check pass read "
              + check.count()
              + ": "
              + r);
    }
    String dataset =
        String.format(
            Locale.ROOT,
            "one month, %,d rows (%,d meters, 1/5 gas, 3%% corrections), %.0f MiB of CSV",
            rows,
            meters,
            Files.size(csv) / (1024.0 * 1024.0));
    String note =
        String.format(
            Locale.ROOT,
            "%,d inserted, %,d superseded; %d chunks of up to %,d readings, %d commits, W %s"
                + " -> %s; after %d imports of the file (the last: JIT %.1f of %.1f CPU s); timed"
                + " %d import%s of it, DuckDB as many copies; %s; %s",
            r.inserted(),
            r.superseded(),
            r.chunks(),
            ImportOptions.DEFAULTS.chunkRows(),
            r.commits(),
            r.watermarkBefore(),
            r.watermarkAfter(),
            warmUps,
            warm.cpu().jit(),
            warm.cpu().jvm(),
            repeats,
            repeats == 1 ? "" : "s",
            side("import", imported),
            side("DuckDB", duck));
    return List.of(
        new Result(
            "10 history import throughput",
            dataset,
            "rows/s",
            imported.perSecond(),
            "DuckDB read_csv -> one Parquet file, 1 thread",
            duck.perSecond(),
            Target.ratioAtLeast(0.5),
            note),
        new Result(
            "10 history import, the first in a fresh JVM",
            dataset,
            "rows/s",
            first.perSecond(),
            "DuckDB read_csv -> one Parquet file, 1 thread",
            duck.perSecond(),
            null,
            "the same import before the JIT compiler has seen it; " + side("import", first)),
        new Result(
            "10 history import check pass alone",
            dataset,
            "rows/s",
            check.perSecond(),
            "MeterStore import, both passes and the commits",
            imported.perSecond(),
            null,
            "every record parsed, built with Reading.builder() and accepted by the table; nothing"
                + " written; "
                + side("check", check)),
        new Result(
            "10 history import peak heap",
            dataset,
            "MiB",
            imported.heapGrowthMiB(),
            "DuckDB read_csv -> Parquet (its own memory is off the JVM heap)",
            duck.heapGrowthMiB(),
            Target.valueAtMost(256),
            "heap retained after GC, peak above the level before the run; JVM -Xmx "
                + (Runtime.getRuntime().maxMemory() >> 20)
                + " MiB"),
        fleetDay(d, p));
  }

  /** Imports {@code csv} into a new table {@code table}, timed; its result into {@code result}. */
  private static Timing.Measured importInto(
      Deployment d, TableDefinition table, Path csv, AtomicReference<ImportResult> result)
      throws Exception {
    try (MeterCatalog catalog =
        MeterCatalog.of(d.hot, d.cold, List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(NOW);
      return Timing.measure(
          d.cpu,
          () -> {
            ImportResult r = catalog.table(table.name()).importHistory(ImportSource.of(csv), NOW);
            if (result != null) {
              result.set(r);
            }
            return r.rows();
          });
    }
  }

  /**
   * One balancing day of a large fleet (twenty times the profile's ingest meters: 20,000 at {@code
   * full}) in one CSV file, meter after meter: a partition window of 1.9 M readings, far more than
   * a chunk, so the import commits whole buffers of {@code chunksHeld} chunks and completes the
   * window through corrections; the line is the retained heap, which must not grow with the fleet.
   */
  private static Result fleetDay(Deployment d, Profile p) throws Exception {
    TableDefinition table = TableDefinition.interval("fleetday");
    int meters = p.ingestMeters() * 20;
    LocalDate day = FIRST.plusDays(DAYS + 1);
    Dataset data = new Dataset(meters, day, 1, 5, 0, 0, p.seed());
    Path csv = d.warehouse.resolveSibling("fleetday.csv");
    long rows =
        writeCsv(
            csv,
            table,
            data.rows(
                table,
                NOW,
                MeteringCalendar.dayStart(day, Commodity.STROM),
                MeteringCalendar.dayStart(day.plusDays(1), Commodity.STROM)));
    AtomicReference<ImportResult> result = new AtomicReference<>();
    Timing.Measured imported = importInto(d, table, csv, result);
    ImportResult r = result.get();
    if (r.rows() != rows || r.stored() != rows) {
      throw new IllegalStateException("wrote " + rows + " rows, imported " + r);
    }
    Files.delete(csv);
    return new Result(
        "10 history import peak heap, fleet day",
        String.format(
            Locale.ROOT, "one day, %,d rows (%,d meters, 1/5 gas), one file", rows, meters),
        "MiB",
        imported.heapGrowthMiB(),
        "the same import's rows/s",
        imported.perSecond(),
        Target.valueAtMost(256),
        String.format(
            Locale.ROOT,
            "%d chunks, %d commits, %,d inserted; %s; JVM -Xmx %d MiB",
            r.chunks(),
            r.commits(),
            r.inserted(),
            side("import", imported),
            Runtime.getRuntime().maxMemory() >> 20));
  }

  /** The check pass alone: every record of {@code csv} read and validated. */
  private static long checkPass(Path csv) {
    long n = 0;
    try (ImportCursor cursor = ImportSource.of(csv).open(TABLE, NOW)) {
      for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
        n++;
      }
    }
    return n;
  }

  private static long duckDb(Path csv, Path warehouse) throws Exception {
    Path out = warehouse.resolveSibling("import-duckdb.parquet");
    Files.deleteIfExists(out);
    try (Connection c = DuckDb.open();
        Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
      s.execute(
          "COPY (SELECT * FROM read_csv('"
              + csv.toAbsolutePath()
              + "', header = true, all_varchar = true)) TO '"
              + out.toAbsolutePath()
              + "' (FORMAT parquet)");
      try (ResultSet rs =
          s.executeQuery("SELECT count(*) FROM read_parquet('" + out.toAbsolutePath() + "')")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Writes {@code rows} (StoredRow layout) as an import CSV; returns the number of rows. */
  static long writeCsv(Path file, Iterable<Object[]> rows) throws Exception {
    return writeCsv(file, TABLE, rows);
  }

  /**
   * Writes {@code rows} ({@link org.meterstore.api.table.StoredRow} layout of {@code table}) as an
   * import CSV with a header of its column names; a null is an empty field, which PostgreSQL's
   * {@code COPY … (FORMAT csv)} also reads as null. Returns the number of rows.
   */
  static long writeCsv(Path file, TableDefinition table, Iterable<Object[]> rows) throws Exception {
    long n = 0;
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(String.join(",", table.columns().stream().map(ColumnSpec::name).toList()));
      out.write('\n');
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          if (i > 0) {
            out.write(',');
          }
          Object v = row[i];
          // the data set's values hold no comma, quote or line break
          out.write(v == null ? "" : v instanceof BigDecimal b ? b.toPlainString() : v.toString());
        }
        out.write('\n');
        n++;
      }
    }
    return n;
  }

  private static Timing.Measured plus(Timing.Measured sum, Timing.Measured next) {
    return sum == null ? next : sum.plus(next);
  }

  /** Whether the JIT compilers took at most {@link #JIT_SETTLED} of {@code m}'s JVM CPU. */
  private static boolean settled(Timing.Measured m) {
    double jit = m.cpu().jit();
    return Double.isNaN(jit) || jit <= JIT_SETTLED * m.cpu().jvm();
  }

  private static String side(String name, Timing.Measured m) {
    return String.format(
        Locale.ROOT,
        "%s %.1f s, CPU s JVM %.1f (JIT %.1f) / PostgreSQL %.1f, GC %.1f, load average %.1f"
            + " -> %.1f",
        name,
        m.seconds(),
        m.cpu().jvm(),
        m.cpu().jit(),
        m.cpu().postgres(),
        m.cpu().gc(),
        m.loadBefore(),
        m.loadAfter());
  }
}
