package org.meterstore.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import org.apache.iceberg.Schema;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.archival.ArchivalSettings;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.outcome.TableOutcome;

/**
 * Benchmark 2, archival: {@code Archiver.run} over one daily window (keyset reads, sorted blocks,
 * Parquet, the Iceberg commit, the digest re-check) against {@link CopyToParquet} of the same
 * partition (no sort, no commit, no digest), with the heap each side retains, the CPU seconds the
 * JVM and PostgreSQL spend on each side (per row) and, as a third side, the keyset read alone
 * (every row through {@code HotStore.archival().rows}, nothing written) before the run.
 *
 * <p>Filling: the window's partition is detached (as an interrupted run leaves it) and its GiST
 * exclusion constraints dropped so that {@code COPY} can load the generated rows quickly; the
 * archival run then resumes the detached window, exactly as after a crash.
 */
final class ArchivalBench {
  static final TableDefinition TABLE =
      TableDefinition.interval("archival")
          .withPolicy(TablePolicy.DEFAULTS.withSettlementLag(Duration.ofDays(1)));
  private static final Instant DAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-05T00:00:00Z");
  private static final String COPY_PARQUET = "COPY TO + one plain Parquet file";

  private ArchivalBench() {}

  /** The sides of one run; {@code copy} is null when the baseline was skipped. */
  private record Sides(
      Timing.Measured archival, Timing.Measured copy, Timing.Measured read, TableOutcome run) {}

  static List<Result> run(Deployment d, Profile p, ArchivalOptions o) throws Exception {
    Dataset data =
        new Dataset(p.archivalMeters(), LocalDate.of(2026, 3, 1), 3, 5, 0.03, 0.01, p.seed());
    String partition = fill(d, data);
    Sides sides = measure(d, partition, o);
    long rows = sides.read().count();
    if (sides.archival().count() != rows
        || (sides.copy() != null && sides.copy().count() != rows)) {
      throw new IllegalStateException(
          "archival moved "
              + sides.archival().count()
              + " rows, the keyset read saw "
              + rows
              + ", COPY TO "
              + (sides.copy() == null ? "did not run" : sides.copy().count())
              + ": "
              + sides.run());
    }
    String dataset =
        String.format(
            Locale.ROOT,
            "one UTC-day window, %,d rows (%,d meters, 1/5 gas, 3%% corrections)",
            rows,
            p.archivalMeters());
    return results(sides, dataset, o);
  }

  /** The baseline (unless skipped), the keyset read alone, then the archival run. */
  private static Sides measure(Deployment d, String partition, ArchivalOptions o) throws Exception {
    Timing.Measured copy = null;
    if (o.baseline()) {
      Schema schema = d.cold.table(TABLE).view(SnapshotSelector.current()).schema();
      Path plain = d.warehouse.resolve("plain-parquet");
      Files.createDirectories(plain);
      String qualified = SqlIdentifiers.qualified(d.hot.schema(), partition);
      Path file = plain.resolve("window.parquet");
      copy = Timing.measure(d.cpu, () -> CopyToParquet.copy(d.raw, qualified, TABLE, schema, file));
    }
    Timing.Measured read = Timing.measure(d.cpu, () -> readAlone(d, partition, o));
    ArchivalSettings settings =
        ArchivalSettings.defaults().withSourceChunkRows(o.sourceChunkRows());
    Archiver archiver = new Archiver(d.hot, d.cold, settings, Deployment.noop());
    AtomicReference<TableOutcome> run = new AtomicReference<>();
    Timing.Measured archival =
        Timing.measure(
            d.cpu,
            () -> {
              run.set(archiver.run(TABLE, NOW, 1));
              return run.get().counts().rowsArchived();
            });
    return new Sides(archival, copy, read, run.get());
  }

  /** The source side alone: every row of the detached partition through the keyset read. */
  private static long readAlone(Deployment d, String partition, ArchivalOptions o) {
    long n = 0;
    for (Object[] ignored : d.hot.archival().rows(TABLE, partition, o.sourceChunkRows(), k -> {})) {
      n++;
    }
    return n;
  }

  private static List<Result> results(Sides s, String dataset, ArchivalOptions o) {
    Lines lines = new Lines(s, dataset, o.baseline() ? COPY_PARQUET : COPY_PARQUET + " (skipped)");
    String chunks = String.format(Locale.ROOT, "%,d-row keyset chunks", o.sourceChunkRows());
    String heapNote =
        "heap retained after GC, peak above the level before the run; JVM -Xmx "
            + (Runtime.getRuntime().maxMemory() >> 20)
            + " MiB";
    String throughputNote = "status " + s.run().status() + ", " + chunks + "; " + timeNote(s);
    return List.of(
        lines.line(
            "throughput",
            "rows/s",
            Timing.Measured::perSecond,
            Target.valueAtLeast(200_000),
            throughputNote),
        lines.line(
            "peak heap", "MiB", Timing.Measured::heapGrowthMiB, Target.valueAtMost(256), heapNote),
        lines.line(
            "JVM CPU per row", "µs CPU/row", Timing.Measured::jvmMicrosPerItem, null, gcNote(s)),
        lines.line(
            "PostgreSQL CPU per row",
            "µs CPU/row",
            Timing.Measured::postgresMicrosPerItem,
            null,
            "this deployment's server only: postmaster, backends, background processes"),
        new Result(
            "2 archival keyset read alone",
            dataset,
            "rows/s",
            s.read().perSecond(),
            "MeterStore archival, whole run",
            s.archival().perSecond(),
            null,
            chunks + ", binary COPY, nothing written; " + sideNote("read", s.read())));
  }

  /** Result lines of one figure of the archival side against the same figure of the baseline. */
  private record Lines(Sides sides, String dataset, String baselineName) {
    Result line(
        String name,
        String metric,
        ToDoubleFunction<Timing.Measured> figure,
        Target target,
        String note) {
      double baseline = sides.copy() == null ? Double.NaN : figure.applyAsDouble(sides.copy());
      return new Result(
          "2 archival " + name,
          dataset,
          metric,
          figure.applyAsDouble(sides.archival()),
          baselineName,
          baseline,
          target,
          note);
    }
  }

  /** Wall time, CPU seconds and load average of each side. */
  private static String timeNote(Sides s) {
    String note = sideNote("archival", s.archival());
    return s.copy() == null ? note : note + "; " + sideNote("baseline", s.copy());
  }

  private static String sideNote(String side, Timing.Measured m) {
    return String.format(
        Locale.ROOT,
        "%s %.1f s, CPU s JVM %.1f / PostgreSQL %.1f, load average %.1f -> %.1f",
        side,
        m.seconds(),
        m.cpu().jvm(),
        m.cpu().postgres(),
        m.loadBefore(),
        m.loadAfter());
  }

  private static String gcNote(Sides s) {
    return String.format(
            Locale.ROOT, "all threads; collectors' time: archival %.1f s", s.archival().cpu().gc())
        + (s.copy() == null
            ? ""
            : String.format(Locale.ROOT, ", baseline %.1f s", s.copy().cpu().gc()));
  }

  /** Makes the window's partition, detached and constraint-free, and COPYs the window's rows in. */
  private static String fill(Deployment d, Dataset data) throws Exception {
    d.hot.createTables(List.of(TABLE), NOW);
    d.cold.createTable(TABLE);
    d.hot.partitions().ensure(TABLE, DAY, DAY.plus(Duration.ofDays(1)));
    String partition = null;
    for (PartitionInfo info : d.hot.partitions().list(TABLE)) {
      d.hot.partitions().detach(TABLE, info.name(), DetachMode.PLAIN);
      if (info.lowerBound().equals(DAY)) {
        partition = info.name();
      } else {
        d.hot.partitions().drop(TABLE, info.name());
      }
    }
    String qualified = SqlIdentifiers.qualified(d.hot.schema(), partition);
    try (Statement s = d.raw.createStatement()) {
      List<String> exclusions = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT conname FROM pg_constraint WHERE contype = 'x' AND conrelid = '"
                  + qualified
                  + "'::regclass")) {
        while (rs.next()) {
          exclusions.add(rs.getString(1));
        }
      }
      for (String name : exclusions) {
        s.execute("ALTER TABLE " + qualified + " DROP CONSTRAINT " + SqlIdentifiers.quote(name));
      }
      CopyText.copy(
          d.raw,
          CopyText.copyIn(qualified, TABLE),
          data.rows(TABLE, NOW, DAY, DAY.plus(Duration.ofDays(1))));
      s.execute("VACUUM ANALYZE " + qualified);
    }
    return partition;
  }
}
