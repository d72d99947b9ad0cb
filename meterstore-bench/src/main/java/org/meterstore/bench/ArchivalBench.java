package org.meterstore.bench;

import java.io.BufferedReader;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.archival.ArchivalSettings;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.postgresql.PGConnection;

/**
 * Benchmark 2, archival: {@code Archiver.run} over one daily window (keyset reads, sorted blocks,
 * Parquet, the Iceberg commit, the digest re-check) against {@code COPY … TO STDOUT} of the same
 * partition parsed into Iceberg records and appended to one Parquet file (no sort, no commit, no
 * digest), with the heap each side retains.
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

  private ArchivalBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    Dataset data =
        new Dataset(p.archivalMeters(), LocalDate.of(2026, 3, 1), 3, 5, 0.03, 0.01, p.seed());
    String partition = fill(d, data);
    Schema schema = d.cold.table(TABLE).icebergTable().schema();
    Path plain = d.warehouse.resolve("plain-parquet");
    Files.createDirectories(plain);
    Timing.Measured copy =
        Timing.withHeap(() -> copyToParquet(d, partition, schema, plain.resolve("window.parquet")));
    Archiver archiver = new Archiver(d.hot, d.cold, ArchivalSettings.defaults(), Deployment.noop());
    AtomicReference<TableOutcome> run = new AtomicReference<>();
    Timing.Measured archival =
        Timing.withHeap(
            () -> {
              run.set(archiver.run(TABLE, NOW, 1));
              return run.get().counts().rowsArchived();
            });
    if (archival.count() != copy.count()) {
      throw new IllegalStateException(
          "archival moved "
              + archival.count()
              + " rows, the window has "
              + copy.count()
              + ": "
              + run.get());
    }
    String dataset =
        String.format(
            java.util.Locale.ROOT,
            "one UTC-day window, %,d rows (%,d meters, 1/5 gas, 3%% corrections)",
            copy.count(),
            p.archivalMeters());
    String heapNote =
        "heap retained after GC, peak above the level before the run; JVM -Xmx "
            + (Runtime.getRuntime().maxMemory() >> 20)
            + " MiB";
    return List.of(
        new Result(
            "2 archival throughput",
            dataset,
            "rows/s",
            archival.perSecond(),
            "COPY TO + one plain Parquet file",
            copy.perSecond(),
            Target.valueAtLeast(200_000),
            "status " + run.get().status()),
        new Result(
            "2 archival peak heap",
            dataset,
            "MiB",
            archival.heapGrowthMiB(),
            "COPY TO + one plain Parquet file",
            copy.heapGrowthMiB(),
            Target.valueAtMost(256),
            heapNote));
  }

  /** Makes the window's partition, detached and constraint-free, and COPYs the window's rows in. */
  private static String fill(Deployment d, Dataset data) throws Exception {
    d.hot.createTables(List.of(TABLE), NOW);
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
    String qualified = "\"" + d.hot.schema() + "\".\"" + partition + "\"";
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
        s.execute("ALTER TABLE " + qualified + " DROP CONSTRAINT \"" + name + "\"");
      }
      CopyText.copy(
          d.raw,
          CopyText.copyIn(qualified, TABLE),
          data.rows(TABLE, NOW, DAY, DAY.plus(Duration.ofDays(1))));
      s.execute("VACUUM ANALYZE " + qualified);
    }
    return partition;
  }

  /** The baseline: COPY TO STDOUT, parse each line, append it to one Parquet file (ZSTD). */
  private static long copyToParquet(Deployment d, String partition, Schema schema, Path file)
      throws Exception {
    try (Statement s = d.raw.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET DateStyle = 'ISO'");
    }
    String sql =
        "COPY \""
            + d.hot.schema()
            + "\".\""
            + partition
            + "\" ("
            + CopyText.columnList(TABLE)
            + ") TO STDOUT";
    PipedWriter sink = new PipedWriter();
    PipedReader source = new PipedReader(sink, 1 << 20);
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread copier =
        new Thread(
            () -> {
              try (sink) {
                d.raw.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, sink);
              } catch (Exception e) {
                failure.set(e);
              }
            },
            "bench-copy-out");
    copier.start();
    long n = 0;
    List<ColumnSpec> columns = TABLE.columns();
    try (BufferedReader in = new BufferedReader(source, 1 << 20);
        FileAppender<Record> out =
            Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile()))
                .schema(schema)
                .createWriterFunc(GenericParquetWriter::create)
                .set("write.parquet.compression-codec", "zstd")
                .build()) {
      GenericRecord template = GenericRecord.create(schema);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.add(parse(template, columns, line));
        n++;
      }
    }
    copier.join();
    if (failure.get() != null) {
      throw failure.get();
    }
    return n;
  }

  private static final DateTimeFormatter PG_TIMESTAMPTZ =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .appendPattern("X")
          .toFormatter();

  private static Record parse(GenericRecord template, List<ColumnSpec> columns, String line) {
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
                case TIMESTAMPTZ -> OffsetDateTime.parse(f, PG_TIMESTAMPTZ);
                case DATE -> LocalDate.parse(f);
                case DECIMAL_18_6 -> new BigDecimal(f).setScale(6);
                case DECIMAL_20_0 -> new BigDecimal(f);
              };
      r.setField(col.name(), value);
    }
    return r;
  }
}
