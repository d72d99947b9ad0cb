package org.meterstore.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * Benchmark 6: the latency of one 96-reading {@code HotStore.write} while the maintenance loop runs
 * (two settled windows are due for archival) and a long reader holds a transaction open on the
 * table (an analyst's query: {@code ACCESS SHARE} on the parent and every partition), against the
 * same writes with neither. Measured with plain detach and again with {@code DETACH … CONCURRENTLY}
 * (the default).
 */
final class LatencyBench {
  static final TableDefinition TABLE =
      TableDefinition.interval("latency")
          .withPolicy(TablePolicy.DEFAULTS.withSettlementLag(Duration.ofDays(1)));
  private static final LocalDate SETTLED = LocalDate.of(2026, 3, 2);
  private static final Instant NOW = Instant.parse("2026-03-05T12:00:00Z");

  /**
   * The plain-detach phase writes at most this many batches: nearly every one of them queues behind
   * a {@code DETACH} for the whole {@code ddl_lock_timeout} (3 s), so the full profile's 1,000
   * would take most of an hour for a comparison line without a target.
   */
  private static final int PLAIN_BATCHES = 100;

  private LatencyBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    int meters = p.latencyBatches();
    Dataset data = new Dataset(meters, SETTLED, 10, 0, 0, 0, p.seed());
    d.hot.createTables(List.of(TABLE), NOW);
    d.cold.createTable(TABLE);
    for (int day = 0; day < 2; day++) {
      for (int m = 0; m < Math.min(meters, 50); m++) {
        d.hot.write(TABLE, data.meterDay(m, SETTLED.plusDays(day)).originals(), NOW);
      }
    }
    for (int m = 0; m < 10; m++) {
      d.hot.write(TABLE, data.meterDay(m, SETTLED.plusDays(3)).originals(), NOW);
    }
    List<Double> idle = writes(d, data, SETTLED.plusDays(4), meters);
    Phase plain =
        busy(d, data, SETTLED.plusDays(5), Math.min(meters, PLAIN_BATCHES), DetachMode.PLAIN);
    Phase concurrent = busy(d, data, SETTLED.plusDays(6), meters, DetachMode.CONCURRENTLY);
    String dataset =
        meters
            + " batches of 96 readings per phase ("
            + Math.min(meters, PLAIN_BATCHES)
            + " with plain detach), one connection, 3 settled windows due";
    double idleP50 = Timing.percentile(idle, 50) * 1000;
    double idleP99 = Timing.percentile(idle, 99) * 1000;
    List<Result> results = new ArrayList<>();
    for (Phase phase : List.of(plain, concurrent)) {
      String mode =
          phase.mode == DetachMode.PLAIN ? "plain detach" : "detach concurrently (default)";
      results.add(
          new Result(
              "6 insert latency p50, maintenance + long reader, " + mode,
              dataset,
              "ms",
              Timing.percentile(phase.latencies, 50) * 1000,
              "idle (no maintenance, no reader)",
              idleP50,
              null,
              phase.note()));
      results.add(
          new Result(
              "6 insert latency p99, maintenance + long reader, " + mode,
              dataset,
              "ms",
              Timing.percentile(phase.latencies, 99) * 1000,
              "idle (no maintenance, no reader)",
              idleP99,
              Target.ratioAtMost(2),
              phase.note()));
    }
    return results;
  }

  private static List<Double> writes(Deployment d, Dataset data, LocalDate day, int meters) {
    List<Double> latencies = new ArrayList<>(meters);
    for (int m = 0; m < meters; m++) {
      var batch = data.meterDay(m, day).originals();
      long started = System.nanoTime();
      d.hot.write(TABLE, batch, NOW);
      latencies.add((System.nanoTime() - started) / 1e9);
    }
    return latencies;
  }

  private record Phase(DetachMode mode, List<Double> latencies, int cycles, String outcomes) {
    String note() {
      return cycles + " maintenance cycles during the phase; last outcome: " + outcomes;
    }
  }

  private static Phase busy(Deployment d, Dataset data, LocalDate day, int meters, DetachMode mode)
      throws Exception {
    MeterCatalog catalog = MeterCatalog.of(d.hot, d.cold, List.of(TABLE), Deployment.noop());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger cycles = new AtomicInteger();
    AtomicReference<String> last = new AtomicReference<>("none");
    try (Connection reader = d.connect()) {
      reader.setAutoCommit(false);
      try (Statement s = reader.createStatement();
          ResultSet rs =
              s.executeQuery("SELECT count(*) FROM \"" + d.hot.schema() + "\".\"latency\"")) {
        rs.next();
      }
      Thread maintenance =
          new Thread(
              () -> {
                while (!stop.get()) {
                  try {
                    MaintenanceOutcome o = catalog.maintenance().detachMode(mode).runOnce(NOW);
                    last.set(o.rows().toString());
                  } catch (RuntimeException e) {
                    last.set(e.toString());
                  }
                  cycles.incrementAndGet();
                }
              },
              "bench-maintenance");
      maintenance.start();
      List<Double> latencies;
      try {
        Thread.sleep(200);
        latencies = writes(d, data, day, meters);
      } finally {
        stop.set(true);
        maintenance.join();
        reader.rollback();
      }
      String outcome = last.get();
      return new Phase(
          mode,
          latencies,
          cycles.get(),
          outcome.length() > 300 ? outcome.substring(0, 300) + "…" : outcome);
    }
  }

  static String describe(List<Double> latencies) {
    return String.format(
        Locale.ROOT,
        "p50 %.1f ms, p99 %.1f ms",
        Timing.percentile(latencies, 50) * 1000,
        Timing.percentile(latencies, 99) * 1000);
  }
}
