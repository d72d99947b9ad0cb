package org.meterstore.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark 11 (issue #32, group {@code point}): one market location's readings, the most frequent
 * question a metering back-end asks, from 1, 4 and 16 client threads, MeterStore ({@code
 * MeterCatalog.connection()} per thread) against plain PostgreSQL (a JDBC connection per thread) on
 * the deployment {@link PointData} lays out. Each {@link PointQuestion} is asked as a prepared
 * statement with bound parameters about the same seeded sequence of locations on both sides ({@link
 * LocationSequence}); per thread count, throughput (executions/s) and p50 and p99 latency of each
 * side. Every answer is digested ({@link RowDigest}); a location whose answers differ between the
 * sides, or between two executions, fails every line of its question.
 */
final class PointBench {
  private static final String BASELINE =
      "PostgreSQL, same rows in one table (primary key: merge key, version), DISTINCT ON";

  private PointBench() {}

  static List<Result> run(Deployment d, Profile p, PointOptions o) throws Exception {
    try (PointData data = PointData.build(d, o, p.seed())) {
      String sizes = data.describe();
      System.out.println("point data set: " + sizes + "; " + data.preparation());
      PointLoad.Side meterStore = meterStore(data);
      PointLoad.Side postgres = postgres(d);
      List<Result> results = new ArrayList<>();
      for (PointQuestion q : o.questions()) {
        results.addAll(question(q, o, p.seed(), data.malos, meterStore, postgres, sizes));
      }
      Result first = results.get(0);
      results.set(0, withNote(first, first.note() + "; data set " + data.preparation()));
      return results;
    }
  }

  private static Result withNote(Result r, String note) {
    return new Result(
        r.name(),
        r.dataset(),
        r.metric(),
        r.meterstore(),
        r.baselineName(),
        r.baseline(),
        r.target(),
        note,
        r.wrongAnswer());
  }

  static PointLoad.Side meterStore(PointData data) {
    return meterStoreSql(data.catalog::connection);
  }

  /** Opens a connection that speaks MeterStore's SQL (in process, or through a driver). */
  interface Connector {
    Connection open() throws SQLException;
  }

  /** The MeterStore side on connections {@code connector} opens. */
  static PointLoad.Side meterStoreSql(Connector connector) {
    return new PointLoad.Side() {
      @Override
      public Connection open() throws SQLException {
        return connector.open();
      }

      @Override
      public String sql(PointQuestion q) {
        return q.meterStoreSql(PointData.TABLE.name());
      }

      @Override
      public void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        ps.setTimestamp(index, Timestamp.from(value));
      }
    };
  }

  private static PointLoad.Side postgres(Deployment d) {
    return new PointLoad.Side() {
      @Override
      public Connection open() throws SQLException {
        return d.connect();
      }

      @Override
      public String sql(PointQuestion q) {
        return q.postgresSql(PointData.PLAIN);
      }

      @Override
      public void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException {
        ps.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC));
      }
    };
  }

  /** One question at every thread count, both sides, then the answers compared. */
  private static List<Result> question(
      PointQuestion q,
      PointOptions o,
      long seed,
      String[] malos,
      PointLoad.Side meterStore,
      PointLoad.Side postgres,
      String sizes)
      throws Exception {
    PointAnswers msAnswers = new PointAnswers();
    PointAnswers pgAnswers = new PointAnswers();
    // one execution per side first: the engine's first plan of the text and the first reads of
    // the files belong to no thread count's runs
    pgAnswers.record(0, PointLoad.once(postgres, q, malos[0]));
    msAnswers.record(0, PointLoad.once(meterStore, q, malos[0]));
    Map<Integer, PointLoad.Outcome[]> runs = new LinkedHashMap<>();
    for (int threads : o.threads()) {
      PointLoad.Plan plan = new PointLoad.Plan(q, threads, o.warmUpSeconds(), o.seconds(), seed);
      runs.put(
          threads,
          PointLoad.both(
              plan, malos, "MeterStore", meterStore, msAnswers, "PostgreSQL", postgres, pgAnswers));
    }
    PointAnswers.Comparison answers =
        msAnswers.compare(pgAnswers, m -> PointLoad.once(postgres, q, malos[m]));
    List<Result> results = new ArrayList<>();
    runs.forEach(
        (threads, sides) ->
            results.addAll(lines(q, threads, sides[0], sides[1], answers, o, sizes)));
    return results;
  }

  /** The p50, p99 and throughput lines of one question at one thread count. */
  private static List<Result> lines(
      PointQuestion q,
      int threads,
      PointLoad.Outcome ms,
      PointLoad.Outcome pg,
      PointAnswers.Comparison answers,
      PointOptions o,
      String sizes) {
    String name =
        String.format(
            Locale.ROOT, "11 point %s, %d thread%s, ", q.label, threads, threads == 1 ? "" : "s");
    String dataset =
        String.format(
            Locale.ROOT,
            "one location, %s (%,.0f rows per execution); %s",
            q.range(),
            ms.rowsPerExecution(),
            sizes);
    Line line = new Line(dataset, note(ms, pg, o) + answers, answers.wrong());
    Target p50 = threads == 1 ? Target.ratioAtMost(q.p50Bound) : null;
    Target throughput = threads == 16 ? Target.ratioAtLeast(q.throughputBound) : null;
    return List.of(
        line.of(name + "p50", "ms", ms.p(50) * 1e3, pg.p(50) * 1e3, p50),
        line.of(name + "p99", "ms", ms.p(99) * 1e3, pg.p(99) * 1e3, null),
        line.of(name + "throughput", "executions/s", ms.throughput(), pg.throughput(), throughput));
  }

  /** What the lines of one question at one thread count share. */
  private record Line(String dataset, String note, boolean wrong) {
    Result of(String name, String metric, double meterstore, double postgres, Target target) {
      return new Result(name, dataset, metric, meterstore, BASELINE, postgres, target, note, wrong);
    }
  }

  private static String note(PointLoad.Outcome ms, PointLoad.Outcome pg, PointOptions o) {
    return String.format(
        Locale.ROOT,
        "%d s measured after %d s warm-up per side, each thread its own connection and prepared"
            + " statement; MeterStore %,d executions (%.1f/s, p50 %.2f ms, p99 %.2f ms), PostgreSQL"
            + " %,d (%.1f/s, p50 %.2f ms, p99 %.2f ms); ",
        o.seconds(),
        o.warmUpSeconds(),
        ms.latencies().size(),
        ms.throughput(),
        ms.p(50) * 1e3,
        ms.p(99) * 1e3,
        pg.latencies().size(),
        pg.throughput(),
        pg.p(50) * 1e3,
        pg.p(99) * 1e3);
  }
}
