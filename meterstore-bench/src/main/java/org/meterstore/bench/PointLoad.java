package org.meterstore.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One side answering one question from {@code n} client threads at once, each on its own connection
 * with one prepared statement, asking about the locations of its {@link LocationSequence}: every
 * thread connects and prepares, all start together, execute for the warm-up and then for the
 * measured seconds (each thread at least one measured execution), reading every row of every answer
 * into a {@link RowDigest} recorded in the side's {@link PointAnswers}.
 */
final class PointLoad {
  private PointLoad() {}

  /** One side of the comparison: how it connects, what it asks and how it binds. */
  interface Side {
    /** A new connection of this side, one per client thread; the caller closes it. */
    Connection open() throws SQLException;

    /** The statement answering {@code q}, parameters: location, from, to. */
    String sql(PointQuestion q);

    /** Binds an instant the way this side's driver takes a {@code from} bound. */
    void bindInstant(PreparedStatement ps, int index, Instant value) throws SQLException;
  }

  /**
   * What one client thread measured.
   *
   * @param latencies seconds of each measured execution
   * @param firstStart {@code System.nanoTime()} when its first measured execution started
   * @param lastEnd {@code System.nanoTime()} when its last measured execution ended
   * @param rows rows read by the measured executions
   */
  record Client(List<Double> latencies, long firstStart, long lastEnd, long rows) {
    /** Executions per second over the thread's measured span. */
    double throughput() {
      return latencies.size() / ((lastEnd - firstStart) / 1e9);
    }
  }

  /**
   * A run's figures.
   *
   * @param latencies seconds of every measured execution, all threads
   * @param throughput executions per second: the sum of the threads' rates, each over its own
   *     measured span (so an execution running past the end is counted whole, not cut off)
   * @param rows rows read by the measured executions
   */
  record Outcome(List<Double> latencies, double throughput, long rows) {
    static Outcome of(List<Client> threads) {
      List<Double> all = new ArrayList<>();
      double rate = 0;
      long rows = 0;
      for (Client t : threads) {
        all.addAll(t.latencies());
        rate += t.throughput();
        rows += t.rows();
      }
      return new Outcome(List.copyOf(all), rate, rows);
    }

    double p(double percentile) {
      return Timing.percentile(latencies, percentile);
    }

    double rowsPerExecution() {
      return (double) rows / latencies.size();
    }
  }

  /** The timing of a run: warm-up and measured seconds from a common start. */
  record Plan(PointQuestion question, int threads, int warmUpSeconds, int seconds, long seed) {}

  /**
   * Runs {@code baseline}, then {@code measured}, as {@code plan} says over {@code malos}, prints a
   * line naming them, and returns their outcomes: measured first.
   */
  static Outcome[] both(
      Plan plan,
      String[] malos,
      String measuredName,
      Side measured,
      PointAnswers measuredAnswers,
      String baselineName,
      Side baseline,
      PointAnswers baselineAnswers)
      throws Exception {
    Outcome base = run(baseline, plan, malos, baselineAnswers);
    Outcome meas = run(measured, plan, malos, measuredAnswers);
    System.out.printf(
        java.util.Locale.ROOT,
        "%s, %d thread(s): %s %.1f/s p50 %.2f ms, %s %.1f/s p50 %.2f ms%n",
        plan.question().label,
        plan.threads(),
        measuredName,
        meas.throughput(),
        meas.p(50) * 1e3,
        baselineName,
        base.throughput(),
        base.p(50) * 1e3);
    return new Outcome[] {meas, base};
  }

  /** Runs {@code side} as {@code plan} says over the locations {@code malos}. */
  static Outcome run(Side side, Plan plan, String[] malos, PointAnswers answers) throws Exception {
    AtomicLong start = new AtomicLong();
    CyclicBarrier ready = new CyclicBarrier(plan.threads(), () -> start.set(System.nanoTime()));
    ExecutorService pool = Executors.newFixedThreadPool(plan.threads());
    try {
      List<Future<Client>> futures = new ArrayList<>();
      for (int t = 0; t < plan.threads(); t++) {
        LocationSequence sequence =
            new LocationSequence(plan.seed(), plan.question().ordinal(), t, malos.length);
        futures.add(pool.submit(() -> client(side, plan, malos, sequence, answers, ready, start)));
      }
      List<Client> threads = new ArrayList<>();
      for (Future<Client> f : futures) {
        threads.add(unwrap(f));
      }
      return Outcome.of(threads);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Client client(
      Side side,
      Plan plan,
      String[] malos,
      LocationSequence sequence,
      PointAnswers answers,
      CyclicBarrier ready,
      AtomicLong start)
      throws Exception {
    PointQuestion q = plan.question();
    try (Connection c = side.open();
        PreparedStatement ps = c.prepareStatement(side.sql(q))) {
      // a client that fails to connect breaks the barrier for the others after the timeout
      ready.await(2, TimeUnit.MINUTES);
      long measureFrom = start.get() + plan.warmUpSeconds() * 1_000_000_000L;
      long end = measureFrom + plan.seconds() * 1_000_000_000L;
      List<Double> latencies = new ArrayList<>();
      long firstStart = 0;
      long lastEnd = 0;
      long rows = 0;
      while (true) {
        long began = System.nanoTime();
        if (began >= end && !latencies.isEmpty()) {
          return new Client(latencies, firstStart, lastEnd, rows);
        }
        int location = sequence.next();
        ps.setString(1, malos[location]);
        side.bindInstant(ps, 2, q.from);
        side.bindInstant(ps, 3, q.to);
        RowDigest.Fingerprint answer = q.read(ps);
        long ended = System.nanoTime();
        answers.record(location, answer);
        if (began >= measureFrom) {
          firstStart = latencies.isEmpty() ? began : firstStart;
          latencies.add((ended - began) / 1e9);
          lastEnd = ended;
          rows += answer.rows();
        }
      }
    }
  }

  /** One execution of {@code q} about {@code malo} on a fresh connection of {@code side}. */
  static RowDigest.Fingerprint once(Side side, PointQuestion q, String malo) throws SQLException {
    try (Connection c = side.open();
        PreparedStatement ps = c.prepareStatement(side.sql(q))) {
      ps.setString(1, malo);
      side.bindInstant(ps, 2, q.from);
      side.bindInstant(ps, 3, q.to);
      return q.read(ps);
    }
  }

  private static <T> T unwrap(Future<T> f) throws Exception {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception cause) {
        throw cause;
      }
      throw e;
    }
  }
}
