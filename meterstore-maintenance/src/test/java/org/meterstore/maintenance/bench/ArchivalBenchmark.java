package org.meterstore.maintenance.bench;

import io.opentelemetry.api.OpenTelemetry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.ColdConfig;
import org.meterstore.cold.ColdStore;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.maintenance.archival.ArchivalSettings;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.workload.Workload;
import org.postgresql.PGConnection;

/**
 * Archival throughput and peak heap for one window of N rows (default 5,000,000; first argument),
 * against a plain {@code COPY … TO STDOUT} of the same partition written to one Parquet file with
 * Iceberg's Parquet writer (no sort, no commit protocol, no digest), in the same run on the same
 * embedded PostgreSQL and local warehouse. Not a test: run it by hand (docs/benchmarks.md).
 *
 * <p>The window's rows are made inside PostgreSQL: one real meter-day is written through {@link
 * HotStore#write}, the partition is detached (as an interrupted run would leave it), its CHECK and
 * exclusion constraints are dropped (the benchmark's synthetic MaLo ids do not carry check digits),
 * and {@code generate_series} copies that day's 92 UTC quarter-hours to N / 92 meters. The archival
 * run then resumes the detached window: keyset reads, sorting in chunks, Parquet, the commit and
 * the digest re-check.
 */
public final class ArchivalBenchmark {
  private static final Instant DAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-05T00:00:00Z");
  private static final TableDefinition TABLE =
      TableDefinition.interval("bench")
          .withPolicy(TablePolicy.DEFAULTS.withSettlementLag(Duration.ofDays(1)));
  private static final String PARTITION = "bench_2026_03_02_0000";

  private ArchivalBenchmark() {}

  /** Starts embedded PostgreSQL, fills one window, runs both sides, prints rows/s and heap. */
  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
    Path warehouse = Files.createTempDirectory("archival-bench");
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
      try (HotStore hot =
              HotStore.open(HotConfig.of(url, "postgres", "postgres").withPoolSize(4), noop());
          ColdStore cold =
              ColdStore.open(
                  ColdConfig.jdbc(url, "postgres", "postgres", warehouse.toUri().toString()));
          Connection c = pg.getPostgresDatabase().getConnection()) {
        long made = fill(hot, c, rows);
        Schema schema = cold.table(TABLE).icebergTable().schema();
        // -Darchival.baseline=false skips the COPY TO + Parquet line (for quick iterations only: a
        // recorded run needs the baseline of the same run).
        Measured copy =
            Boolean.parseBoolean(System.getProperty("archival.baseline", "true"))
                ? measure(() -> copyToParquet(c, schema, warehouse.resolve("plain.parquet")))
                : new Measured(1, 1, 0, 0, 0, 0, 0, 0, 0);
        Measured read = measure(() -> readOnly(hot));
        ArchivalSettings settings = ArchivalSettings.defaults();
        String sourceChunk = System.getProperty("archival.sourceChunkRows");
        if (sourceChunk != null) {
          settings = settings.withSourceChunkRows(Integer.parseInt(sourceChunk));
        }
        Archiver archiver = new Archiver(hot, cold, settings, noop());
        AtomicReference<TableOutcome> run = new AtomicReference<>();
        Measured archival =
            measure(
                () -> {
                  run.set(archiver.run(TABLE, NOW, 1));
                  return run.get().counts().rowsArchived();
                });
        report(made, run.get(), archival, copy);
        print("of which: the keyset read alone (binary COPY, 50,000-row chunks)", read);
      }
    }
  }

  private static OpenTelemetry noop() {
    return OpenTelemetry.noop();
  }

  /** Writes one real meter-day, detaches it and multiplies it to {@code rows} rows in SQL. */
  private static long fill(HotStore hot, Connection c, long rows) throws Exception {
    hot.createTables(List.of(TABLE), NOW);
    hot.partitions().ensure(TABLE, DAY, DAY.plus(Duration.ofDays(1)));
    Workload day = new Workload(1, LocalDate.of(2026, 3, 2), 1, 0, 0, 0, 1);
    hot.write(TABLE, day.deliveries().get(0).readings(), NOW);
    String before = "bench_2026_03_01_0000";
    hot.partitions().detach(TABLE, before, DetachMode.PLAIN);
    hot.partitions().drop(TABLE, before);
    hot.partitions().detach(TABLE, PARTITION, DetachMode.PLAIN);
    long started = System.nanoTime();
    try (Statement s = c.createStatement()) {
      for (String constraint : constraints(s)) {
        s.execute(
            "ALTER TABLE meterstore." + PARTITION + " DROP CONSTRAINT \"" + constraint + "\"");
      }
      List<String> columns = TABLE.columns().stream().map(ColumnSpec::name).toList();
      List<String> select = new ArrayList<>();
      for (String col : columns) {
        select.add(
            switch (col) {
              case "malo_id" -> "lpad(k::text, 11, '0')";
              case "value" ->
                  "((k * 31 + extract(epoch from t.\"from\")::bigint / 900) % 2500) / 1000.0";
              default -> "t.\"" + col + "\"";
            });
      }
      String quoted = String.join(", ", columns.stream().map(n -> "\"" + n + "\"").toList());
      s.execute(
          "INSERT INTO meterstore."
              + PARTITION
              + " ("
              + quoted
              + ") SELECT "
              + String.join(", ", select)
              + " FROM meterstore."
              + PARTITION
              + " t CROSS JOIN generate_series(1, "
              + Math.max(1, rows / 92 - 1)
              + ") k");
      s.execute("VACUUM ANALYZE meterstore." + PARTITION);
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM meterstore." + PARTITION)) {
        rs.next();
        System.out.printf(
            Locale.ROOT,
            "filled %,d rows in %.1f s%n",
            rs.getLong(1),
            (System.nanoTime() - started) / 1e9);
        return rs.getLong(1);
      }
    }
  }

  private static List<String> constraints(Statement s) throws Exception {
    List<String> names = new ArrayList<>();
    try (ResultSet rs =
        s.executeQuery(
            "SELECT conname FROM pg_constraint WHERE conrelid = 'meterstore."
                + PARTITION
                + "'::regclass AND contype IN ('c', 'x')")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  /** The source side alone: every row through the keyset cursor, nothing written. */
  private static long readOnly(HotStore hot) {
    long n = 0;
    for (Object[] ignored :
        hot.archival()
            .rows(TABLE, PARTITION, ArchivalSettings.DEFAULT_SOURCE_CHUNK_ROWS, k -> {})) {
      n++;
    }
    return n;
  }

  /** The baseline: COPY TO STDOUT, parse each line, append it to one Parquet file. */
  private static long copyToParquet(Connection c, Schema schema, Path file) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET DateStyle = 'ISO'");
    }
    List<ColumnSpec> columns = TABLE.columns();
    String sql =
        "COPY meterstore."
            + PARTITION
            + " ("
            + String.join(", ", columns.stream().map(n -> "\"" + n.name() + "\"").toList())
            + ") TO STDOUT";
    PipedWriter sink = new PipedWriter();
    PipedReader source = new PipedReader(sink, 1 << 20);
    AtomicReference<Exception> copyFailure = new AtomicReference<>();
    Thread copier =
        new Thread(
            () -> {
              try (sink) {
                c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, sink);
              } catch (Exception e) {
                copyFailure.set(e);
              }
            });
    copier.start();
    long n = 0;
    try (BufferedReader in = new BufferedReader(source, 1 << 20);
        FileAppender<Record> out =
            Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile()))
                .schema(schema)
                .createWriterFunc(GenericParquetWriter::create)
                .set("write.parquet.compression-codec", "zstd")
                .build()) {
      GenericRecord template = GenericRecord.create(schema);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.add(record(template, columns, line));
        n++;
      }
    }
    copier.join();
    if (copyFailure.get() != null) {
      throw copyFailure.get();
    }
    return n;
  }

  private static final DateTimeFormatter TIMESTAMPTZ =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .appendPattern("X")
          .toFormatter();

  private static Record record(GenericRecord template, List<ColumnSpec> columns, String line) {
    GenericRecord r = template.copy();
    String[] fields = line.split("\t", -1);
    for (int i = 0; i < fields.length; i++) {
      String f = fields[i];
      ColumnSpec col = columns.get(i);
      Object value =
          f.equals("\\N")
              ? null
              : switch (col.type()) {
                case TEXT -> f;
                case TIMESTAMPTZ -> OffsetDateTime.parse(f, TIMESTAMPTZ);
                case DATE -> LocalDate.parse(f);
                case DECIMAL_18_6 -> new BigDecimal(f).setScale(6);
                case DECIMAL_20_0 -> new BigDecimal(f);
              };
      r.setField(col.name(), value);
    }
    return r;
  }

  /** Wall time and peak heap growth of one side. */
  private record Measured(
      long rows,
      double seconds,
      long baselineHeap,
      long peakHeap,
      double loadBefore,
      double loadAfter,
      double jvmCpuSeconds,
      double postgresCpuSeconds,
      double gcSeconds) {}

  private interface Side {
    long run() throws Exception;
  }

  private static Measured measure(Side side) throws Exception {
    System.gc();
    Thread.sleep(200);
    long baseline = heapUsed();
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    AtomicLong peak = new AtomicLong(baseline);
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(heapUsed(), Math::max);
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    sampler.setDaemon(true);
    sampler.start();
    double gcBefore = gcSeconds();
    double jvmBefore = jvmCpuSeconds();
    double pgBefore = postgresCpuSeconds();
    long started = System.nanoTime();
    long rows = side.run();
    double seconds = (System.nanoTime() - started) / 1e9;
    double jvm = jvmCpuSeconds() - jvmBefore;
    double pg = postgresCpuSeconds() - pgBefore;
    double gc = gcSeconds() - gcBefore;
    sampler.interrupt();
    sampler.join();
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return new Measured(rows, seconds, baseline, peak.get(), loadBefore, loadAfter, jvm, pg, gc);
  }

  /** Time the JVM's collectors report having spent, summed over collectors. */
  private static double gcSeconds() {
    long millis = 0;
    for (java.lang.management.GarbageCollectorMXBean gc :
        ManagementFactory.getGarbageCollectorMXBeans()) {
      millis += Math.max(0, gc.getCollectionTime());
    }
    return millis / 1000.0;
  }

  /** CPU seconds this JVM has used, all threads (NaN where the platform does not tell). */
  private static double jvmCpuSeconds() {
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean
        ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() / 1e9
        : Double.NaN;
  }

  /**
   * CPU seconds used by PostgreSQL's processes on this machine, read from {@code /proc}: user and
   * system time of every process named {@code postgres}, plus that of its reaped children (ended
   * backends are counted in the postmaster's). NaN without {@code /proc}.
   */
  private static double postgresCpuSeconds() {
    Path proc = Path.of("/proc");
    if (!Files.isDirectory(proc)) {
      return Double.NaN;
    }
    long ticks = 0;
    try (java.util.stream.Stream<Path> entries = Files.list(proc)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String stat = Files.readString(p.resolve("stat"));
          int open = stat.indexOf('(');
          int close = stat.lastIndexOf(')');
          if (!stat.substring(open + 1, close).equals("postgres")) {
            continue;
          }
          String[] f = stat.substring(close + 2).split(" ");
          // fields 14-17 of proc(5): utime, stime, cutime, cstime (f[0] is field 3)
          for (int i = 11; i <= 14; i++) {
            ticks += Long.parseLong(f[i]);
          }
        } catch (IOException | RuntimeException e) {
          // the process ended while being read
        }
      }
    } catch (IOException e) {
      return Double.NaN;
    }
    return ticks / 100.0;
  }

  /**
   * The heap still in use after the most recent collection of each heap pool, summed: what a side
   * retains (garbage not yet collected does not count, unlike {@code MemoryMXBean} "used").
   */
  private static long heapUsed() {
    long used = 0;
    for (java.lang.management.MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP
          && pool.getCollectionUsage() != null) {
        used += pool.getCollectionUsage().getUsed();
      }
    }
    return used;
  }

  private static void report(long made, TableOutcome run, Measured archival, Measured copy)
      throws IOException {
    System.out.printf(Locale.ROOT, "window: %,d rows; archival run: %s%n", made, run.status());
    print("MeterStore archival (keyset COPY, sorted blocks, commit, digest)", archival);
    print("COPY TO + one Parquet file (no sort, no commit)", copy);
    System.out.printf(
        Locale.ROOT,
        "ratio archival / COPY+Parquet: %.2f; max heap %d MiB%n",
        (archival.rows() / archival.seconds()) / (copy.rows() / copy.seconds()),
        Runtime.getRuntime().maxMemory() >> 20);
  }

  private static void print(String what, Measured m) {
    System.out.printf(
        Locale.ROOT,
        "%-58s %,10.0f rows/s (%,d rows in %.1f s), heap growth peak %,d MiB,"
            + " load average %.1f -> %.1f, CPU s: JVM %.1f, PostgreSQL %.1f; GC %.1f s%n",
        what,
        m.rows() / m.seconds(),
        m.rows(),
        m.seconds(),
        (m.peakHeap() - m.baselineHeap()) >> 20,
        m.loadBefore(),
        m.loadAfter(),
        m.jvmCpuSeconds(),
        m.postgresCpuSeconds(),
        m.gcSeconds());
  }
}
