package org.meterstore.cold.internal.write;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.BiFunction;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.parquet.schema.MessageType;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.LocalTables;
import org.meterstore.cold.internal.layout.RowConverter;

/**
 * Not a test: writes archival-like rows (one meter-day of 96 quarter-hours for each of many meters,
 * values shared between consecutive rows as the hot tier's reader shares them) to one local Parquet
 * file with Iceberg's {@code InternalWriter} and with {@link CachingValueWriters}, the table's
 * layout properties (ZSTD, bloom filters) for both, and prints rows/s (wall clock and the writing
 * thread's CPU time) per round and the ratio of the medians. The rows are built in memory first, so
 * the figures are the Parquet write alone.
 *
 * <p>Arguments: rows (default 2,000,000), rounds (default 3). From the repository root:
 *
 * <pre>{@code
 * mvn -B -ntp -q -pl meterstore-cold -am test-compile dependency:build-classpath \
 *   -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * mkdir -p meterstore-cold/target/tmp
 * java -Xmx2g -Djava.io.tmpdir=meterstore-cold/target/tmp \
 *   -cp meterstore-cold/target/test-classes:meterstore-cold/target/classes:$(cat meterstore-cold/target/bench.classpath) \
 *   org.meterstore.cold.internal.write.CachingValueWritersBenchmark 2000000 3
 * }</pre>
 */
public final class CachingValueWritersBenchmark {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CachingValueWritersBenchmark() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir = java.nio.file.Files.createTempDirectory("writers-bench");
    Table table = LocalTables.create(dir.resolve("table"), TABLE, 512L << 20);
    Schema schema = table.schema();
    List<StructLike> data = rows(schema, rows);
    System.out.printf(Locale.ROOT, "%,d rows built; %s%n", data.size(), dir);

    Path iceberg = dir.resolve("iceberg.parquet");
    Path ours = dir.resolve("ours.parquet");
    BiFunction<Schema, MessageType, ParquetValueWriter<?>> internal = InternalWriter::createWriter;
    BiFunction<Schema, MessageType, ParquetValueWriter<?>> caching = CachingValueWriters::create;
    write(table, iceberg, internal, data);
    write(table, ours, caching, data);
    System.out.println("warm-up done");
    double[][] icebergRates = new double[2][rounds];
    double[][] ourRates = new double[2][rounds];
    for (int r = 0; r < rounds; r++) {
      double[] a = write(table, iceberg, internal, data);
      print("InternalWriter     ", r, a, iceberg);
      double[] b = write(table, ours, caching, data);
      print("CachingValueWriters", r, b, ours);
      icebergRates[0][r] = a[0];
      icebergRates[1][r] = a[1];
      ourRates[0][r] = b[0];
      ourRates[1][r] = b[1];
    }
    System.out.printf(
        Locale.ROOT,
        "median rows/s: InternalWriter %,.0f (cpu %,.0f), CachingValueWriters %,.0f (cpu %,.0f);"
            + " ratio %.2f (cpu %.2f); files identical: %s%n",
        median(icebergRates[0]),
        median(icebergRates[1]),
        median(ourRates[0]),
        median(ourRates[1]),
        median(ourRates[0]) / median(icebergRates[0]),
        median(ourRates[1]) / median(icebergRates[1]),
        Arrays.equals(
            java.nio.file.Files.readAllBytes(iceberg), java.nio.file.Files.readAllBytes(ours)));
  }

  /** Writes {@code data} to {@code file}; returns rows/s by wall clock and by thread CPU time. */
  private static double[] write(
      Table table,
      Path file,
      BiFunction<Schema, MessageType, ParquetValueWriter<?>> function,
      List<StructLike> data)
      throws IOException {
    java.nio.file.Files.deleteIfExists(file);
    long cpu = THREADS.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    DataWriter<StructLike> writer = CachingValueWritersTest.icebergWriter(table, file, function);
    try (writer) {
      for (StructLike row : data) {
        writer.write(row);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
    return new double[] {data.size() / seconds, data.size() / cpuSeconds, seconds};
  }

  private static void print(String name, int round, double[] rate, Path file) throws IOException {
    System.out.printf(
        Locale.ROOT,
        "round %d %s %,10.0f rows/s (%.2f s; cpu %,10.0f rows/s) %,d bytes%n",
        round + 1,
        name,
        rate[0],
        rate[2],
        rate[1],
        java.nio.file.Files.size(file));
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /**
   * Rows in Iceberg's internal representation through {@link RowConverter}, which keeps a value
   * identical to the previous row's as the same object. Per meter: its ids, version and {@code
   * recorded_at} are one object for its 96 rows (as the hot reader gives them); {@code from},
   * {@code to} and the value are new objects per row; constant columns are one object throughout.
   */
  private static List<StructLike> rows(Schema schema, int count) {
    RowConverter converter = new RowConverter(TABLE, schema);
    Random random = new Random(42);
    Instant day = Instant.parse("2026-01-14T23:00:00Z");
    LocalDate balancingDay = LocalDate.of(2026, 1, 15);
    String obis = "1-0:1.8.0";
    String scope = "9900000000003:2026-01";
    List<StructLike> out = new ArrayList<>(count);
    for (int meter = 0; out.size() < count; meter++) {
      String malo = String.format(Locale.ROOT, "5%010d", meter);
      String melo = String.format(Locale.ROOT, "DE00056266802AO6G56M11SN51G21M%03d", meter % 1000);
      BigDecimal version = BigDecimal.valueOf(20_260_115_000_000L + random.nextInt(1000));
      Instant recordedAt = day.plus(Duration.ofDays(2)).plusMillis(random.nextInt(86_400_000));
      for (int q = 0; q < 96 && out.size() < count; q++) {
        Instant from = day.plus(Duration.ofMinutes(15L * q));
        Object[] row = {
          malo,
          melo,
          obis,
          "STROM",
          from,
          from.plus(Duration.ofMinutes(15)),
          BigDecimal.valueOf(random.nextInt(2_000_000), 6),
          "KWH",
          q == 17 ? "ESTIMATED" : "MEASURED",
          "PT15M",
          version,
          scope,
          recordedAt,
          balancingDay,
          "MSCONS",
          null
        };
        out.add(converter.toInternal(row));
      }
    }
    return out;
  }
}
