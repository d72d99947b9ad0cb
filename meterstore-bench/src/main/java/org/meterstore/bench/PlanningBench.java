package org.meterstore.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark 8 (issue #15): the time of {@code Connection.prepareStatement(sql)} — MeterStore plans
 * when a statement is prepared — for two benchmark statements, the year aggregate and one
 * location's month across W. "First": the first preparation of the text on a freshly built engine
 * ({@link QueryEntry#open}, a new connection), median over several fresh engines in this JVM (so
 * the JIT and any JVM-wide cache are warm: what a new engine costs, not a cold JVM). "Cached": the
 * same text prepared again on the same engine and connection, median of {@code monthRuns}. Both
 * have value targets (first ≤ 50 ms, cached ≤ 2 ms); the baseline is PostgreSQL's planning time for
 * the same question in the resolution SQL ({@code EXPLAIN (SUMMARY)}'s "Planning Time", the
 * server's planner only, median of {@code monthRuns}); PostgreSQL re-plans an unnamed statement
 * each time, so the one baseline serves both lines.
 */
final class PlanningBench {
  private static final Pattern PLANNING_TIME = Pattern.compile("Planning Time: ([0-9.]+) ms");

  private PlanningBench() {}

  static List<Result> run(Deployment d, Profile p, String yearSql, String pgYearSql, String sizes)
      throws Exception {
    List<Result> results = new ArrayList<>();
    results.addAll(
        lines(d, p, "year aggregate", yearSql, pgYearSql, null, "the year aggregate; " + sizes));
    results.addAll(
        lines(
            d,
            p,
            "month across W",
            MonthBench.MS_SQL,
            MonthBench.PG_SQL,
            MonthBench.MALO,
            "one location's month across W (malo_id = ?, unbound); " + sizes));
    return results;
  }

  private static List<Result> lines(
      Deployment d,
      Profile p,
      String label,
      String sql,
      String pgSql,
      String pgParameter,
      String dataset)
      throws Exception {
    int engines = Math.max(5, p.monthRuns() / 4);
    List<Double> first = new ArrayList<>();
    List<Double> cached = new ArrayList<>();
    for (int e = 0; e < engines; e++) {
      prepareOnFreshEngine(d, sql, first, e == engines - 1 ? p.monthRuns() : 0, cached);
    }
    double pg = postgresPlanningMillis(d, p.monthRuns(), pgSql, pgParameter);
    String baseline = "PostgreSQL planning time, same question (EXPLAIN SUMMARY, median)";
    String how =
        String.format(
            Locale.ROOT,
            "prepareStatement only (the connection already open); PostgreSQL: the server's"
                + " Planning Time of the resolution SQL on plain.readings, median of %d.",
            p.monthRuns());
    return List.of(
        new Result(
            "8 planning first, " + label,
            dataset,
            "ms (median)",
            Timing.percentile(first, 50),
            baseline,
            pg,
            Target.valueAtMost(50),
            String.format(
                Locale.ROOT,
                "first preparation of the text on each of %d freshly built engines, median (the"
                    + " JVM is warm: earlier lines ran); the first engine's %.2f ms, max %.2f"
                    + " ms; %s",
                engines,
                first.get(0),
                Timing.percentile(first, 100),
                how)),
        new Result(
            "8 planning cached, " + label,
            dataset,
            "ms (median)",
            Timing.percentile(cached, 50),
            baseline,
            pg,
            Target.valueAtMost(2),
            String.format(
                Locale.ROOT,
                "the same text prepared again %d times on one engine's connection (after its"
                    + " first), median; p95 %.2f ms; %s",
                p.monthRuns(),
                Timing.percentile(cached, 95),
                how)));
  }

  /**
   * Prepares {@code sql} on a freshly built engine's new connection, adding the milliseconds to
   * {@code first}, then {@code again} more times on the same connection, adding to {@code cached}.
   */
  private static void prepareOnFreshEngine(
      Deployment d, String sql, List<Double> first, int again, List<Double> cached)
      throws Exception {
    try (QueryEntry q = QueryEntry.open(d, QueryBench.TABLES, QueryBench.NOW);
        Connection c = q.connection()) {
      first.add(prepareMillis(c, sql));
      for (int i = 0; i < again; i++) {
        cached.add(prepareMillis(c, sql));
      }
    }
  }

  /** Milliseconds of one {@code prepareStatement(sql)}; the statement is closed untimed. */
  private static double prepareMillis(Connection c, String sql) throws Exception {
    long started = System.nanoTime();
    PreparedStatement ps = c.prepareStatement(sql);
    double millis = (System.nanoTime() - started) / 1e6;
    ps.close();
    return millis;
  }

  /**
   * The median of PostgreSQL's reported planning time for {@code sql}, its one {@code ?} (if {@code
   * parameter} is not null) replaced by that string literal: a plain statement, planned afresh by
   * the server each time.
   */
  private static double postgresPlanningMillis(Deployment d, int runs, String sql, String parameter)
      throws Exception {
    String text =
        "EXPLAIN (SUMMARY) "
            + (parameter == null
                ? sql
                : sql.replace("?", "'" + parameter.replace("'", "''") + "'"));
    List<Double> millis = new ArrayList<>();
    try (Connection c = d.connect();
        Statement s = c.createStatement()) {
      for (int i = 0; i < runs + 1; i++) {
        double reported = Double.NaN;
        try (ResultSet rs = s.executeQuery(text)) {
          while (rs.next()) {
            Matcher m = PLANNING_TIME.matcher(rs.getString(1));
            if (m.find()) {
              reported = Double.parseDouble(m.group(1));
            }
          }
        }
        if (i > 0) { // the first is a warm-up
          millis.add(reported);
        }
      }
    }
    return Timing.percentile(millis, 50);
  }
}
