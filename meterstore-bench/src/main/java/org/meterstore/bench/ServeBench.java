package org.meterstore.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.meterstore.server.PasswordHash;
import org.meterstore.server.ServerSettings;
import org.meterstore.server.SqlServer;

/**
 * Benchmark 12 (issue #35, group {@code serve}): the same questions through {@code meterstore
 * serve} — Apache Arrow's Flight SQL JDBC driver over loopback, a user signed in — against the
 * in-process driver ({@code MeterCatalog.connection()}), in the same run on the {@link PointData}
 * deployment. The point questions at one thread (p50; the network path may add at most 20 %) and at
 * sixteen (throughput); the monthly aggregate per location over the whole data set, and one month
 * of every location's readings streamed, in rows per second (the aggregate at least 0.8x the
 * in-process rate). Every served answer is compared with the in-process one, row by row.
 */
final class ServeBench {
  private static final String BASELINE = "in-process driver (MeterCatalog.connection()), same run";
  private static final String USER = "bench";
  private static final String PASSWORD = "bench-serve-password";

  private ServeBench() {}

  static List<Result> run(Deployment d, Profile p, PointOptions o) throws Exception {
    try (PointData data = PointData.build(d, o, p.seed());
        SqlServer server = SqlServer.start(data.catalog, settings())) {
      String sizes = data.describe();
      System.out.println("serve data set: " + sizes + "; " + data.preparation());
      String url =
          "jdbc:arrow-flight-sql://127.0.0.1:"
              + server.port()
              + "/?useEncryption=false&user="
              + USER
              + "&password="
              + PASSWORD;
      PointLoad.Side inProcess = PointBench.meterStore(data);
      PointLoad.Side served = served(url);
      List<Result> results = new ArrayList<>();
      for (PointQuestion q : o.questions()) {
        results.addAll(question(q, o, p.seed(), data.malos, served, inProcess, sizes));
      }
      results.add(
          streamed(
              "12 serve year aggregate",
              "monthly sum and count per location over the whole data set, ordered",
              aggregateSql(),
              p.queryRuns(),
              url,
              data,
              sizes,
              Target.ratioAtLeast(0.8)));
      results.add(
          streamed(
              "12 serve one month of every location",
              "malo_id, from, value of February 2026 (cold tier)",
              monthSql(),
              p.queryRuns(),
              url,
              data,
              sizes,
              null));
      return results;
    }
  }

  private static ServerSettings settings() {
    return new ServerSettings(
        "127.0.0.1",
        0,
        null,
        null,
        Map.of(USER, PasswordHash.create(PASSWORD.toCharArray())),
        Map.of(),
        false,
        Duration.ofMinutes(10));
  }

  private static PointLoad.Side served(String url) {
    return PointBench.meterStoreSql(() -> DriverManager.getConnection(url));
  }

  /** One question at one and at sixteen threads (those of the options' counts), both sides. */
  private static List<Result> question(
      PointQuestion q,
      PointOptions o,
      long seed,
      String[] malos,
      PointLoad.Side served,
      PointLoad.Side inProcess,
      String sizes)
      throws Exception {
    PointAnswers servedAnswers = new PointAnswers();
    PointAnswers localAnswers = new PointAnswers();
    localAnswers.record(0, PointLoad.once(inProcess, q, malos[0]));
    servedAnswers.record(0, PointLoad.once(served, q, malos[0]));
    List<Result> results = new ArrayList<>();
    List<PointLoad.Outcome[]> runs = new ArrayList<>();
    List<Integer> counts = o.threads().stream().filter(t -> t == 1 || t == 16).toList();
    for (int threads : counts) {
      PointLoad.Plan plan = new PointLoad.Plan(q, threads, o.warmUpSeconds(), o.seconds(), seed);
      runs.add(
          PointLoad.both(
              plan, malos, "served", served, servedAnswers, "in-process", inProcess, localAnswers));
    }
    PointAnswers.Comparison answers =
        servedAnswers.compare(localAnswers, m -> PointLoad.once(inProcess, q, malos[m]));
    for (int i = 0; i < counts.size(); i++) {
      int threads = counts.get(i);
      PointLoad.Outcome net = runs.get(i)[0];
      PointLoad.Outcome local = runs.get(i)[1];
      String name =
          String.format(
              Locale.ROOT,
              "12 serve point %s, %d thread%s, ",
              q.label,
              threads,
              threads == 1 ? "" : "s");
      String dataset =
          String.format(
              Locale.ROOT,
              "one location, %s (%,.0f rows per execution); %s",
              q.range(),
              net.rowsPerExecution(),
              sizes);
      String note =
          String.format(
                  Locale.ROOT,
                  "%d s measured after %d s warm-up per side, each thread its own connection and"
                      + " prepared statement; served %,d executions (p50 %.2f ms, p99 %.2f ms),"
                      + " in-process %,d (p50 %.2f ms, p99 %.2f ms); ",
                  o.seconds(),
                  o.warmUpSeconds(),
                  net.latencies().size(),
                  net.p(50) * 1e3,
                  net.p(99) * 1e3,
                  local.latencies().size(),
                  local.p(50) * 1e3,
                  local.p(99) * 1e3)
              + answers;
      if (threads == 1) {
        results.add(
            new Result(
                name + "p50",
                dataset,
                "ms",
                net.p(50) * 1e3,
                BASELINE,
                local.p(50) * 1e3,
                Target.ratioAtMost(1.2),
                note,
                answers.wrong()));
      } else {
        results.add(
            new Result(
                name + "throughput",
                dataset,
                "executions/s",
                net.throughput(),
                BASELINE,
                local.throughput(),
                null,
                note,
                answers.wrong()));
      }
    }
    return results;
  }

  /** The aggregate: one row per location and month, ordered, over both tiers. */
  static String aggregateSql() {
    String t = PointData.TABLE.name();
    return "SELECT malo_id, EXTRACT(YEAR FROM balancing_day) AS y, EXTRACT(MONTH FROM"
        + " balancing_day) AS m, SUM(\"value\") AS total, COUNT(*) AS n FROM "
        + t
        + " GROUP BY malo_id, EXTRACT(YEAR FROM balancing_day), EXTRACT(MONTH FROM balancing_day)"
        + " ORDER BY malo_id, y, m";
  }

  /** February 2026 of every location: many rows, little computing. */
  static String monthSql() {
    return "SELECT malo_id, \"from\", \"value\" FROM "
        + PointData.TABLE.name()
        + " WHERE \"from\" >= TIMESTAMP '2026-01-31 23:00:00' AND \"from\" < TIMESTAMP"
        + " '2026-02-28 23:00:00'";
  }

  /**
   * Rows per second of {@code sql} read whole (execution and every row), the median of {@code runs}
   * after one warm-up per side, served against in-process; the answers compared as an
   * order-independent digest of every cell.
   */
  private static Result streamed(
      String name,
      String what,
      String sql,
      int runs,
      String url,
      PointData data,
      String sizes,
      Target target)
      throws Exception {
    Digest local = new Digest();
    Digest net = new Digest();
    double localSeconds;
    double netSeconds;
    try (Connection c = data.catalog.connection()) {
      localSeconds = Timing.medianSeconds(1, runs, () -> local.read(c, sql));
    }
    try (Connection c = DriverManager.getConnection(url)) {
      netSeconds = Timing.medianSeconds(1, runs, () -> net.read(c, sql));
    }
    boolean same = local.rows == net.rows && local.digest == net.digest;
    System.out.printf(
        Locale.ROOT,
        "%s: served %,d rows in %.3f s, in-process %,d in %.3f s%s%n",
        name,
        net.rows,
        netSeconds,
        local.rows,
        localSeconds,
        same ? "" : " (ANSWERS DIFFER)");
    return new Result(
        name,
        what + ", " + String.format(Locale.ROOT, "%,d rows; ", local.rows) + sizes,
        "rows/s",
        net.rows / netSeconds,
        BASELINE,
        local.rows / localSeconds,
        target,
        String.format(
            Locale.ROOT,
            "median of %d after 1 warm-up, one connection per side; served %.3f s, in-process"
                + " %.3f s; %s",
            runs,
            netSeconds,
            localSeconds,
            same ? "answers equal (every cell)" : "ANSWERS DIFFER"),
        !same);
  }

  /** Row count and an order-independent digest of every cell of the last answer read. */
  private static final class Digest {
    long rows;
    long digest;

    Object read(Connection c, String sql) throws SQLException {
      long n = 0;
      long d = 0;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(sql)) {
        ResultSetMetaData md = rs.getMetaData();
        int columns = md.getColumnCount();
        int[] types = new int[columns];
        for (int i = 0; i < columns; i++) {
          types[i] = md.getColumnType(i + 1);
        }
        while (rs.next()) {
          RowDigest row = new RowDigest();
          for (int i = 0; i < columns; i++) {
            cell(row, rs, i + 1, types[i]);
          }
          row.endRow();
          d += row.fingerprint().digest();
          n++;
        }
      }
      rows = n;
      digest = d;
      return null;
    }

    private static void cell(RowDigest row, ResultSet rs, int column, int type)
        throws SQLException {
      switch (type) {
        case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE ->
            row.addMillis(rs.getTimestamp(column));
        case Types.DECIMAL, Types.NUMERIC, Types.BIGINT, Types.INTEGER, Types.SMALLINT ->
            row.add(rs.getBigDecimal(column), 6);
        default -> row.add(rs.getString(column));
      }
    }
  }
}
