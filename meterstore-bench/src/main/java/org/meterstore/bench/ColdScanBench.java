package org.meterstore.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.ColdDataFile;
import org.meterstore.cold.snapshot.SnapshotSelector;

/**
 * Benchmark 7 (issue #15): a cold scan + aggregate ({@code SUM} and {@code COUNT} per location over
 * a {@code from} range entirely below W, so only the cold tier is read) in rows per second per
 * core: the stored rows of the files in the range (every version) divided by the JVM's process CPU
 * seconds during the query (all threads; {@link CpuClock}). Two tables: {@link QueryBench#SINGLE}
 * (one version per file, so merge elision applies — "elided") and the year table (corrections and
 * redeliveries in every file, so versions are resolved — "resolving"). The plan's resolution term
 * ({@code EXPLAIN PLAN FOR}) goes into the note. The baseline is DuckDB over the same files, in
 * this JVM, so its threads count in the same CPU clock: a plain {@code GROUP BY} for the elided
 * table (one version per reading: nothing to resolve), the published resolution SQL for the year.
 */
final class ColdScanBench {
  private static final Pattern RESOLUTION = Pattern.compile("resolution=\\[[^\\]]*\\]");

  private ColdScanBench() {}

  static List<Result> run(Deployment d, Profile p, QueryBench.ColdFiles year) throws Exception {
    QueryBench.ColdFiles single = archiveSingle(d, p);
    System.out.println("query single-version table: " + single.sizes());
    return List.of(
        line(d, p, QueryBench.SINGLE, single, true), line(d, p, QueryBench.TABLE, year, false));
  }

  /**
   * {@link QueryBench#SINGLE}: the first {@code elidedMeters} locations' first deliveries below W,
   * one version per month ({@link Dataset#singleVersionRows}), in one {@code ColdTable.archive}
   * commit like the year's.
   */
  private static QueryBench.ColdFiles archiveSingle(Deployment d, Profile p) throws Exception {
    Dataset data =
        new Dataset(p.elidedMeters(), QueryBench.FIRST_DAY, 365, 5, 0.03, 0.01, p.seed());
    TableDefinition t = QueryBench.SINGLE;
    Instant from = QueryBench.COLD_FROM;
    double seconds =
        Timing.seconds(
            () ->
                d.cold
                    .createTable(t)
                    .archive(
                        new ArchiveRequest(from, QueryBench.W, QueryBench.NOW, 1),
                        data.singleVersionRows(t, QueryBench.NOW, from, QueryBench.W)));
    List<ColdDataFile> cold = d.cold.table(t).view(SnapshotSelector.current()).dataFiles();
    long rows = cold.stream().mapToLong(ColdDataFile::recordCount).sum();
    String sizes =
        String.format(
            Locale.ROOT,
            "%s: the first %,d of the year's %,d locations, first deliveries only (no corrections"
                + " or redeliveries), one version per month file, 2025 below W: %,d cold rows (%d"
                + " files, committed in %.0f s)",
            t.name(),
            p.elidedMeters(),
            p.yearMeters(),
            rows,
            cold.size(),
            seconds);
    return new QueryBench.ColdFiles(QueryBench.dataFiles(cold), rows, sizes);
  }

  private static Result line(
      Deployment d, Profile p, TableDefinition t, QueryBench.ColdFiles files, boolean elided)
      throws Exception {
    String msSql =
        "SELECT malo_id, SUM(\"value\") AS total, COUNT(*) AS n FROM "
            + t.name()
            + " WHERE \"from\" >= TIMESTAMP '"
            + sqlTimestamp(QueryBench.COLD_FROM)
            + "' AND \"from\" < TIMESTAMP '"
            + sqlTimestamp(QueryBench.W)
            + "' GROUP BY malo_id";
    Answer ms = new Answer(2, "groups");
    Answer duck = new Answer(2, "groups");
    String plan;
    Cost msCost;
    try (QueryEntry q = QueryEntry.open(d, QueryBench.TABLES, QueryBench.NOW);
        Connection c = q.connection()) {
      plan = resolutionTerm(c, msSql);
      msCost = Cost.median(d.cpu, p.queryRuns(), () -> ms.read(c, msSql));
    }
    String duckSql = duckSql(files.files(), elided);
    Cost duckCost;
    try (Connection c = DuckDb.open()) {
      duckCost = Cost.median(d.cpu, p.queryRuns(), () -> duck.read(c, duckSql));
    }
    long rows = files.rows();
    return new Result(
        elided ? "7 cold scan + aggregate, elided" : "7 cold scan + aggregate, resolving",
        files.sizes(),
        "rows/s per core (JVM CPU)",
        rows / msCost.cpu,
        elided
            ? "DuckDB GROUP BY over the same files, rows/s per core (JVM CPU)"
            : "DuckDB resolution SQL over the same files, rows/s per core (JVM CPU)",
        rows / duckCost.cpu,
        elided ? Target.valueAtLeast(20_000_000) : null,
        note(p, rows, elided, plan, msCost, duckCost)
            + String.format(
                Locale.ROOT,
                " MeterStore %s; DuckDB %s%s",
                ms,
                duck,
                ms.agrees(duck) ? " (answers agree)" : " (ANSWERS DIFFER)"),
        !ms.agrees(duck));
  }

  /**
   * DuckDB's aggregate over {@code files} in the same range: a plain {@code GROUP BY} where every
   * reading has one version ({@code elided}), else the published resolution SQL first.
   */
  private static String duckSql(List<String> files, boolean elided) {
    String range =
        " WHERE \"from\" >= TIMESTAMPTZ '"
            + sqlTimestamp(QueryBench.COLD_FROM)
            + "+00' AND \"from\" < TIMESTAMPTZ '"
            + sqlTimestamp(QueryBench.W)
            + "+00'";
    String source =
        elided
            ? DuckDb.readParquet(files) + range
            : "(SELECT malo_id, \"value\", "
                + QueryBench.RESOLVED
                + " AS rn FROM "
                + DuckDb.readParquet(files)
                + range
                + ") r WHERE rn = 1";
    return "SELECT malo_id, SUM(\"value\") AS total, COUNT(*) AS n FROM "
        + source
        + " GROUP BY malo_id";
  }

  private static String note(
      Profile p, long rows, boolean elided, String plan, Cost ms, Cost duck) {
    boolean planElides = plan.contains("elided");
    return String.format(
        Locale.ROOT,
        "rows = the %,d stored rows (every version) of the files in the range; per core ="
            + " rows / JVM process CPU seconds during the query (median of %d after 1"
            + " warm-up). MeterStore: CPU %.3f s, wall %.3f s (%,.0f rows/s wall), PostgreSQL"
            + " CPU %.3f s, plan %s%s. DuckDB (%s, SET threads = %d, in this JVM so the same"
            + " clock counts its threads): CPU %.3f s, wall %.3f s (%,.0f rows/s wall, %,.0f"
            + " rows/s per core by wall x threads).",
        rows,
        p.queryRuns(),
        ms.cpu,
        ms.wall,
        rows / ms.wall,
        ms.postgres,
        plan,
        elided == planElides ? "" : (elided ? " (NOT ELIDED)" : " (UNEXPECTEDLY ELIDED)"),
        elided ? "plain GROUP BY: one version per reading" : "the published resolution SQL",
        DuckDb.threads(),
        duck.cpu,
        duck.wall,
        rows / duck.wall,
        rows / (duck.wall * DuckDb.threads()));
  }

  /** {@code 2025-12-01 00:00:00} for {@code 2025-12-01T00:00:00Z}. */
  static String sqlTimestamp(Instant t) {
    return t.toString().replace('T', ' ').replace("Z", "");
  }

  /**
   * The plan's {@code resolution=[…]} term; where the plan has none, its line naming {@code
   * MeterColdScan} (or any line with {@code Cold}), so a changed plan format still shows what ran.
   */
  static String resolutionTerm(Connection c, String sql) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      while (rs.next()) {
        rs.getString(1).lines().map(String::strip).forEach(lines::add);
      }
    }
    for (String l : lines) {
      Matcher m = RESOLUTION.matcher(l);
      if (m.find()) {
        return m.group();
      }
    }
    return lines.stream()
        .filter(l -> l.contains("MeterColdScan"))
        .findFirst()
        .or(() -> lines.stream().filter(l -> l.contains("Cold")).findFirst())
        .map(l -> "line: " + l)
        .orElse("(no cold scan in the plan)");
  }

  /**
   * Median JVM CPU and wall seconds of one query (after one untimed run), and PostgreSQL's CPU
   * meanwhile. The JVM's clock is read just around the query, inside the server's readings, so
   * scanning {@code /proc} for the server does not count as the query's CPU.
   */
  private record Cost(double cpu, double wall, double postgres) {
    static Cost median(CpuClock clock, int runs, Timing.Work<?> work) throws Exception {
      work.run();
      List<Double> cpu = new ArrayList<>();
      List<Double> wall = new ArrayList<>();
      List<Double> pg = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        CpuClock.Usage before = clock.read();
        double jvm = CpuClock.jvmSeconds();
        double seconds = Timing.seconds(work);
        cpu.add(CpuClock.jvmSeconds() - jvm);
        wall.add(seconds);
        pg.add(clock.read().since(before).postgres());
      }
      return new Cost(
          Timing.percentile(cpu, 50), Timing.percentile(wall, 50), Timing.percentile(pg, 50));
    }
  }
}
