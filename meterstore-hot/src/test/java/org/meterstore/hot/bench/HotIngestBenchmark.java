package org.meterstore.hot.bench;

import io.opentelemetry.api.OpenTelemetry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.write.WriteResult;
import org.postgresql.PGConnection;

/**
 * Hot ingest: MeterStore's writer against raw {@code COPY} into an identical partitioned table
 * without the exclusion constraints, in the same run on the same embedded PostgreSQL. Each side
 * writes one warm-up day, then one measured day: 1,000 meters × 96 quarter-hours, one batch (one
 * transaction) per meter and day. Not a test: run it by hand (docs/benchmarks.md) and read the
 * numbers it prints.
 *
 * <p>With the argument {@code --shapes} it then measures statement shapes in isolation, each into
 * its own copy of MeterStore's table (same partitions, same GiST exclusion constraints), with the
 * rows already built: {@code INSERT … FROM unnest(…) ON CONFLICT DO NOTHING RETURNING}, the plain
 * {@code INSERT … FROM unnest(…)}, {@code COPY} into a temporary staging table + {@code INSERT …
 * SELECT}, and raw {@code COPY} straight into the constrained table: the ceiling of any write path
 * that keeps both exclusion constraints.
 */
public final class HotIngestBenchmark {
  private static final int METERS = 1_000;
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant WARM_UP_DAY = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MEASURED_DAY = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private HotIngestBenchmark() {}

  /** Starts embedded PostgreSQL, runs both sides, prints readings/s and the ratio. */
  public static void main(String[] args) throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
      HotConfig config = HotConfig.of(url, "postgres", "postgres").withPoolSize(2);
      try (HotStore store = HotStore.open(config, OpenTelemetry.noop());
          Connection raw = pg.getPostgresDatabase().getConnection()) {
        store.createTables(List.of(TABLE), NOW);
        store.partitions().ensure(TABLE, WARM_UP_DAY, MEASURED_DAY.plus(Duration.ofDays(1)));
        createCopyTable(raw);
        List<List<Reading>> warmUp = batches(WARM_UP_DAY);
        List<List<Reading>> measured = batches(MEASURED_DAY);

        writeAll(store, warmUp);
        copyAll(raw, warmUp);
        double writer = rate(() -> writeAll(store, measured));
        double copy = rate(() -> copyAll(raw, measured));

        print("MeterStore writer (unnest, 96-reading batches)", writer);
        print("raw COPY (no exclusion constraints)", copy);
        System.out.printf(
            Locale.ROOT, "ratio writer / COPY: %.2f (target >= 0.5)%n", writer / copy);
        if (List.of(args).contains("--shapes")) {
          Shapes.run(raw, warmUp, measured, copy);
        }
      }
    }
  }

  private static List<List<Reading>> batches(Instant day) {
    List<List<Reading>> batches = new ArrayList<>(METERS);
    for (int meter = 0; meter < METERS; meter++) {
      batches.add(Fixtures.day(meter, day, "20260304000000"));
    }
    return batches;
  }

  private static void writeAll(HotStore store, List<List<Reading>> batches) {
    for (List<Reading> batch : batches) {
      WriteResult result = store.write(TABLE, batch, NOW);
      if (result.stored() != batch.size()) {
        throw new IllegalStateException("expected every reading stored: " + result);
      }
    }
  }

  /** Each batch: rows built by the api, rendered as COPY text, one COPY per transaction. */
  private static void copyAll(Connection raw, List<List<Reading>> batches) {
    String columns =
        String.join(", ", TABLE.columns().stream().map(c -> "\"" + c.name() + "\"").toList());
    String sql = "COPY raw.lastgang (" + columns + ") FROM STDIN";
    try {
      for (List<Reading> batch : batches) {
        StringBuilder text = new StringBuilder(batch.size() * 200);
        for (Reading r : batch) {
          appendRow(text, StoredRow.of(TABLE, StoredReading.accept(r, NOW)));
        }
        raw.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(text.toString()));
      }
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException("COPY failed", e);
    }
  }

  private static void appendRow(StringBuilder text, Object[] row) {
    List<ColumnSpec> columns = TABLE.columns();
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        text.append('\t');
      }
      Object value = row[i];
      text.append(
          value == null
              ? "\\N"
              : value instanceof java.math.BigDecimal d ? d.toPlainString() : value.toString());
    }
    text.append('\n');
    if (row.length != columns.size()) {
      throw new IllegalStateException("row and columns disagree");
    }
  }

  /** The same parent (columns, primary key, CHECKs), no exclusion constraints, daily partitions. */
  private static void createCopyTable(Connection raw) throws SQLException {
    try (Statement s = raw.createStatement()) {
      s.execute("CREATE SCHEMA raw");
      s.execute(
          "CREATE TABLE raw.lastgang (LIKE meterstore.lastgang INCLUDING ALL)"
              + " PARTITION BY RANGE (\"from\")");
      for (Instant day = WARM_UP_DAY;
          !day.isAfter(MEASURED_DAY);
          day = day.plus(Duration.ofDays(1))) {
        s.execute(
            "CREATE TABLE raw.\"lastgang_"
                + day.getEpochSecond()
                + "\" PARTITION OF raw.lastgang FOR VALUES FROM ('"
                + day
                + "') TO ('"
                + day.plus(Duration.ofDays(1))
                + "')");
      }
    }
  }

  private static double rate(Runnable run) {
    long started = System.nanoTime();
    run.run();
    double seconds = (System.nanoTime() - started) / 1e9;
    return METERS * 96 / seconds;
  }

  private static void print(String what, double readingsPerSecond) {
    System.out.printf(Locale.ROOT, "%-50s %,10.0f readings/s%n", what, readingsPerSecond);
  }
}
