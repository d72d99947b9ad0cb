package org.meterstore.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.ColdDataFile;
import org.meterstore.cold.snapshot.SnapshotSelector;

/**
 * Benchmarks 3, 4, 5, 7, 8 and 9 (the {@code query} group) over one year of readings: {@code
 * yearMeters} market locations from 1 Jan 2025 (both DST days inside), the settled history up to W
 * = 1 Dec 2025 in Iceberg (committed with {@code ColdTable.archive}, one commit), December in the
 * hot tier for the first {@code hotMeters} locations (written with {@code HotStore.write},
 * corrections and redeliveries included). The PostgreSQL baseline holds the same rows (every
 * version) in one table with one B-tree index in the order version resolution needs; DuckDB reads
 * the Iceberg data files with {@code read_parquet}. Each side answers the version-resolved question
 * (the highest version per reading wins), so the answers can be compared. Benchmarks 7 ({@link
 * ColdScanBench}, which adds the single-version table {@link #SINGLE}), 8 ({@link PlanningBench})
 * and 9 ({@link MonthBench}) are issue #15's and reuse this data set.
 */
final class QueryBench {
  static final TableDefinition TABLE = TableDefinition.interval("lastgang");

  /** One version per file (first deliveries, one version per month): merge elision applies. */
  static final TableDefinition SINGLE = TableDefinition.interval("lastgang_single");

  static final List<TableDefinition> TABLES = List.of(TABLE, SINGLE);
  static final LocalDate FIRST_DAY = LocalDate.of(2025, 1, 1);
  static final Instant COLD_FROM = Instant.parse("2024-12-31T00:00:00Z");
  static final Instant W = Instant.parse("2025-12-01T00:00:00Z");
  private static final Instant END = Instant.parse("2026-01-02T00:00:00Z");
  private static final Instant MONTH_END = Instant.parse("2026-01-01T00:00:00Z");
  static final Instant NOW = Instant.parse("2026-01-05T00:00:00Z");

  /**
   * The cold files of one table as the benchmarks need them.
   *
   * @param files the local paths of the current snapshot's data files
   * @param rows the rows they hold (every version)
   * @param sizes the data set, for the results' dataset column
   */
  record ColdFiles(List<String> files, long rows, String sizes) {}

  /** The published resolution: rank 1 is the winning version of a reading. */
  static final String RESOLVED =
      "row_number() OVER (PARTITION BY malo_id, obis_code, \"from\", version_scope"
          + " ORDER BY version DESC, recorded_at DESC)";

  private QueryBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    Dataset data = new Dataset(p.yearMeters(), FIRST_DAY, 365, 5, 0.03, 0.01, p.seed());
    d.hot.createTables(TABLES, NOW);
    double coldSeconds =
        Timing.seconds(
            () ->
                d.cold
                    .createTable(TABLE)
                    .archive(
                        new ArchiveRequest(COLD_FROM, W, NOW, 1),
                        data.rows(TABLE, NOW, COLD_FROM, W)));
    long hotRows = writeHotMonth(d, data, p.hotMeters());
    long plainRows = loadPlain(d, data, p.hotMeters());
    List<ColdDataFile> coldFiles = d.cold.table(TABLE).view(SnapshotSelector.current()).dataFiles();
    List<String> files = dataFiles(coldFiles);
    long coldRows = coldFiles.stream().mapToLong(ColdDataFile::recordCount).sum();
    String sizes =
        String.format(
            Locale.ROOT,
            "%,d locations x 2025 (15-min, 1/5 gas hourly, 3%% corrections): %,d cold rows"
                + " (%d files, committed in %.0f s), %,d hot rows (December, %d locations)",
            p.yearMeters(),
            coldRows,
            files.size(),
            coldSeconds,
            hotRows,
            p.hotMeters());
    System.out.println("query data set: " + sizes + "; plain PostgreSQL " + plainRows + " rows");
    ColdFiles year = new ColdFiles(files, coldRows, sizes);
    List<Result> results = new ArrayList<>();
    Result storage = storage(d, files, coldRows, plainRows, sizes);
    // printed now: the timed lines after it take most of a full run
    System.out.printf(
        Locale.ROOT,
        "query storage: %.2f bytes/reading; %s%n",
        storage.meterstore(),
        storage.note());
    results.add(storage);
    results.addAll(aggregate(d, p, files, sizes));
    results.add(series(d, p, sizes));
    results.addAll(ColdScanBench.run(d, p, year));
    results.addAll(PlanningBench.run(d, p, AGG_MS, pgAggSql(), sizes));
    results.addAll(MonthBench.run(d, p, sizes));
    return results;
  }

  /**
   * December, from W on, for the first {@code hotMeters} meters: originals, redeliveries, fixes.
   */
  private static long writeHotMonth(Deployment d, Dataset data, int hotMeters) {
    long rows = 0;
    for (LocalDate day = LocalDate.of(2025, 11, 30);
        day.isBefore(data.endDay());
        day = day.plusDays(1)) {
      for (int m = 0; m < hotMeters; m++) {
        Dataset.MeterDay md = data.meterDay(m, day);
        List<Reading> originals = atOrAfterW(md.originals());
        List<Reading> corrections = atOrAfterW(md.corrections());
        if (!originals.isEmpty()) {
          rows += d.hot.write(TABLE, originals, NOW).stored();
          if (md.redelivered()) {
            d.hot.write(TABLE, originals, NOW);
          }
        }
        if (!corrections.isEmpty()) {
          rows += d.hot.write(TABLE, corrections, NOW).stored();
        }
      }
    }
    return rows;
  }

  private static List<Reading> atOrAfterW(List<Reading> readings) {
    return readings.stream().filter(r -> !r.from().isBefore(W)).toList();
  }

  /** plain.readings: every row of both tiers, one B-tree index (built after the load), analysed. */
  private static long loadPlain(Deployment d, Dataset data, int hotMeters) throws Exception {
    try (Statement s = d.raw.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS plain");
      s.execute(
          "CREATE TABLE plain.readings (LIKE \""
              + d.hot.schema()
              + "\".lastgang INCLUDING DEFAULTS INCLUDING CONSTRAINTS)");
      String sql = CopyText.copyIn("plain.readings", TABLE);
      long n = CopyText.copy(d.raw, sql, data.rows(TABLE, NOW, COLD_FROM, W));
      Dataset hotPart =
          new Dataset(
              hotMeters,
              data.firstDay(),
              data.days(),
              data.gasEvery(),
              data.correctionRate(),
              data.redeliveryRate(),
              data.seed());
      n += CopyText.copy(d.raw, sql, hotPart.rows(TABLE, NOW, W, END));
      s.execute(
          "CREATE INDEX readings_resolution ON plain.readings"
              + " (malo_id, obis_code, \"from\", version_scope, version DESC, recorded_at DESC)");
      s.execute("VACUUM ANALYZE plain.readings");
      // MeterStore's hot month is analysed too, as autovacuum would within a minute of the load
      // (without statistics PostgreSQL may scan the exclusion constraints' GiST index instead of
      // the primary key): both sides are measured with their statistics.
      s.execute("ANALYZE \"" + d.hot.schema() + "\".lastgang");
      return n;
    }
  }

  /** The local paths of the current snapshot's data files. */
  static List<String> dataFiles(List<ColdDataFile> files) {
    return files.stream().map(f -> f.location().replaceFirst("^file:", "")).toList();
  }

  /** Benchmark 3: Iceberg data-file bytes per reading vs the PostgreSQL table with its index. */
  private static Result storage(
      Deployment d, List<String> files, long coldRows, long plainRows, String sizes)
      throws Exception {
    long icebergBytes = 0;
    for (String f : files) {
      icebergBytes += java.nio.file.Files.size(java.nio.file.Path.of(f));
    }
    long pgBytes;
    try (Statement s = d.raw.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('plain.readings')")) {
      rs.next();
      pgBytes = rs.getLong(1);
    }
    return new Result(
        "3 storage",
        sizes,
        "bytes/reading",
        (double) icebergBytes / coldRows,
        "PostgreSQL table + index (pg_total_relation_size)",
        (double) pgBytes / plainRows,
        Target.ratioAtMost(0.01),
        String.format(
                Locale.ROOT,
                "Iceberg %,d bytes / %,d rows; PostgreSQL %,d bytes / %,d rows; ",
                icebergBytes,
                coldRows,
                pgBytes,
                plainRows)
            + FooterStats.of(files).describe(coldRows));
  }

  private static final String AGG_MS =
      "SELECT malo_id, EXTRACT(YEAR FROM balancing_day) AS y, EXTRACT(MONTH FROM balancing_day)"
          + " AS m, SUM(\"value\") AS total, COUNT(*) AS n FROM lastgang WHERE \"from\" >="
          + " TIMESTAMP '2024-12-31 00:00:00' AND \"from\" < TIMESTAMP '2026-01-02 00:00:00'"
          + " GROUP BY malo_id, EXTRACT(YEAR FROM balancing_day), EXTRACT(MONTH FROM"
          + " balancing_day)";

  private static String aggResolved(String source, String lo, String hi) {
    return "SELECT malo_id, EXTRACT(YEAR FROM balancing_day) AS y, EXTRACT(MONTH FROM"
        + " balancing_day) AS m, SUM(\"value\") AS total, COUNT(*) AS n FROM (SELECT malo_id,"
        + " balancing_day, \"value\", "
        + RESOLVED
        + " AS rn FROM "
        + source
        + " WHERE \"from\" >= "
        + lo
        + " AND \"from\" < "
        + hi
        + ") r WHERE rn = 1 GROUP BY 1, 2, 3";
  }

  private static final String LO = "TIMESTAMPTZ '2024-12-31 00:00:00+00'";
  private static final String HI = "TIMESTAMPTZ '2026-01-02 00:00:00+00'";

  /** The year aggregate in SQL on plain PostgreSQL. */
  private static String pgAggSql() {
    return aggResolved("plain.readings", LO, HI);
  }

  /**
   * Benchmark 4: the monthly aggregate per location over the year, and the heap it ran in. The
   * warm-up run is MeterStore's measured one for the heap (peak retained heap above the level
   * before it).
   */
  private static List<Result> aggregate(Deployment d, Profile p, List<String> files, String sizes)
      throws Exception {
    String duckSql = aggResolved(DuckDb.readParquet(files), LO, HI);
    Answer ms = new Answer(4, "groups");
    Answer pg = new Answer(4, "groups");
    Answer duck = new Answer(4, "groups");
    double msSeconds;
    Timing.Measured warmUp;
    try (QueryEntry q = QueryEntry.open(d, TABLES, NOW);
        Connection c = q.connection()) {
      warmUp =
          Timing.measure(
              d.cpu,
              () -> {
                ms.read(c, AGG_MS);
                return ms.rows;
              });
      msSeconds = Timing.medianSeconds(0, p.queryRuns(), () -> ms.read(c, AGG_MS));
    }
    double pgSeconds;
    try (Connection c = d.connect()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET TimeZone = 'UTC'");
      }
      pgSeconds = Timing.medianSeconds(1, p.queryRuns(), () -> pg.read(c, pgAggSql()));
    }
    double duckSeconds;
    try (Connection c = DuckDb.open()) {
      duckSeconds = Timing.medianSeconds(1, p.queryRuns(), () -> duck.read(c, duckSql));
    }
    String runs = "median of " + p.queryRuns() + " after 1 warm-up";
    String note =
        "MeterStore "
            + ms
            + "; PostgreSQL "
            + pg
            + (ms.agrees(pg) ? " (answers agree)" : " (ANSWERS DIFFER)")
            + "; "
            + runs;
    return List.of(
        new Result(
            "4 year aggregate vs PostgreSQL",
            sizes,
            "seconds (median)",
            msSeconds,
            "PostgreSQL, one indexed table, same rows",
            pgSeconds,
            Target.ratioAtMost(0.25),
            note,
            !ms.agrees(pg)),
        new Result(
            "4 year aggregate vs DuckDB",
            sizes,
            "seconds (median)",
            msSeconds,
            "DuckDB read_parquet over the Iceberg data files, " + DuckDb.threads() + " threads",
            duckSeconds,
            Target.ratioAtMost(1.5),
            "DuckDB "
                + duck
                + " (cold files only: it does not see the hot month), the same resolution SQL,"
                + " SET threads = "
                + DuckDb.threads()
                + " (all the JVM's available processors); MeterStore "
                + ms
                + "; "
                + runs),
        heap(sizes, warmUp));
  }

  /**
   * The JVM's max heap the year aggregate completed in: met at {@code <= 512} MiB, i.e. in a run
   * with {@code BENCH_JAVA_OPTS=-Xmx512m} (issue #15: the full run passes with {@code -Xmx512m}). A
   * run that does not pass never prints this line. No baseline: the value is the run's setting.
   */
  private static Result heap(String sizes, Timing.Measured warmUp) {
    return new Result(
        "4 year aggregate max heap",
        sizes,
        "MiB (JVM max heap)",
        Runtime.getRuntime().maxMemory() / (1024.0 * 1024.0),
        "none (the run's -Xmx; the aggregate completed in it)",
        Double.NaN,
        Target.valueAtMost(512),
        String.format(
            Locale.ROOT,
            "Runtime.maxMemory() of this run; every aggregate run completed in it. MeterStore's"
                + " warm-up run: peak retained heap (after-GC heap pools, sampled every 5 ms) %.1f"
                + " MiB above the level before it, %.2f s, JVM CPU %.2f s",
            warmUp.heapGrowthMiB(),
            warmUp.seconds(),
            warmUp.cpu().jvm()));
  }

  /** Benchmark 5: one location's 15-minute series for December (hot window). */
  private static Result series(Deployment d, Profile p, String sizes) throws Exception {
    String malo = Dataset.malo(0);
    String msSql =
        "SELECT \"from\", \"value\" FROM lastgang WHERE malo_id = '"
            + malo
            + "' AND \"from\" >= TIMESTAMP '2025-12-01 00:00:00' AND \"from\" <"
            + " TIMESTAMP '2026-01-01 00:00:00' ORDER BY \"from\"";
    String pgSql =
        "SELECT \"from\", \"value\" FROM (SELECT \"from\", \"value\", "
            + RESOLVED
            + " AS rn FROM plain.readings WHERE malo_id = '"
            + malo
            + "' AND \"from\" >= TIMESTAMPTZ '"
            + W
            + "' AND \"from\" < TIMESTAMPTZ '"
            + MONTH_END
            + "') r WHERE rn = 1 ORDER BY \"from\"";
    Answer ms = new Answer(2, "rows");
    Answer pg = new Answer(2, "rows");
    int runs = Math.max(10, p.queryRuns() * 4);
    double msSeconds;
    try (QueryEntry q = QueryEntry.open(d, TABLES, NOW);
        Connection c = q.connection()) {
      msSeconds = Timing.medianSeconds(3, runs, () -> ms.read(c, msSql));
    }
    double pgSeconds;
    try (Connection c = d.connect()) {
      pgSeconds = Timing.medianSeconds(3, runs, () -> pg.read(c, pgSql));
    }
    return new Result(
        "5 month series, hot window",
        "location " + malo + ", December 2025 (" + ms.rows + " readings); " + sizes,
        "seconds (median)",
        msSeconds,
        "PostgreSQL, one indexed table, same rows",
        pgSeconds,
        Target.ratioAtMost(1.5),
        "median of "
            + runs
            + " after 3 warm-ups; "
            + (ms.rows == pg.rows ? "row counts agree" : "ROW COUNTS DIFFER " + pg.rows),
        ms.rows != pg.rows);
  }
}
