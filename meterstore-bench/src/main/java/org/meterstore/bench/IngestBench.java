package org.meterstore.bench;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.meterstore.MeterCatalog;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;

/**
 * Benchmark 1, hot ingest: {@code HotStore.write} of one 96-reading batch (one meter-day, one
 * transaction) at a time, against raw {@code COPY} of the same batches into an identical
 * partitioned table (same columns, primary key and CHECKs, daily partitions) without the GiST
 * exclusion constraints, and against raw {@code COPY} into a copy of MeterStore's table whose
 * partitions keep their GiST exclusion constraint ({@code spans_do_not_overlap}; the table declares
 * no resolution): the ceiling of any write path that keeps it; and {@code MeterCatalog.append} of a
 * third day's batches against {@code HotStore.write} (the price of routing by W). Each side writes
 * a warm-up day, then the measured day. Every side builds its rows with the api inside the timed
 * loop.
 */
final class IngestBench {
  static final TableDefinition TABLE = TableDefinition.interval("ingest");
  private static final LocalDate WARM_UP = LocalDate.of(2026, 3, 2);
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private IngestBench() {}

  static List<Result> run(Deployment d, Profile p) throws Exception {
    Dataset data = new Dataset(p.ingestMeters(), WARM_UP, 3, 0, 0, 0, p.seed());
    d.hot.createTables(List.of(TABLE), NOW);
    Instant first = MeteringCalendar.dayStart(WARM_UP, Commodity.STROM);
    Instant end = MeteringCalendar.dayStart(data.endDay(), Commodity.STROM);
    d.hot.partitions().ensure(TABLE, first, end);
    createRawTable(d, first, end);
    createConstrainedTable(d, first, end);
    String copySql = CopyText.copyIn("raw.ingest", TABLE);
    String gistSql = CopyText.copyIn("raw.ingest_gist", TABLE);
    List<List<Reading>> warmUp = batches(data, WARM_UP);
    List<List<Reading>> measured = batches(data, WARM_UP.plusDays(1));
    write(d, warmUp);
    copy(d, copySql, warmUp);
    copy(d, gistSql, warmUp);
    double readings = measured.size() * 96.0;
    double writer = readings / Timing.seconds(() -> write(d, measured));
    double raw = readings / Timing.seconds(() -> copy(d, copySql, measured));
    double gist = readings / Timing.seconds(() -> copy(d, gistSql, measured));
    List<List<Reading>> routed = batches(data, WARM_UP.plusDays(2));
    double append;
    try (MeterCatalog catalog =
        MeterCatalog.of(d.hot, d.cold, List.of(TABLE), OpenTelemetry.noop())) {
      catalog.createTables(NOW);
      append = readings / Timing.seconds(() -> append(catalog, routed));
    }
    List<Result> results = new ArrayList<>(results(p, writer, raw, gist));
    results.add(
        new Result(
            "1 hot ingest through MeterCatalog.append",
            results.get(0).dataset(),
            "readings/s",
            append,
            "HotStore.write of the same batches (the first line)",
            writer,
            null,
            "append reads W from the cold tier once per batch to route it; every reading of"
                + " this day lies above W"));
    return results;
  }

  private static Object append(MeterCatalog catalog, List<List<Reading>> batches) {
    for (List<Reading> batch : batches) {
      WriteResult result = catalog.table(TABLE.name()).append(batch, NOW);
      if (result.stored() != batch.size() || result.count(Tier.HOT) != batch.size()) {
        throw new IllegalStateException("expected every reading stored hot: " + result);
      }
    }
    return null;
  }

  private static List<Result> results(Profile p, double writer, double raw, double gist) {
    String dataset = p.ingestMeters() + " meters x 96 quarter-hours (one day, after a warm-up day)";
    return List.of(
        new Result(
            "1 hot ingest",
            dataset,
            "readings/s",
            writer,
            "raw COPY, no exclusion constraints",
            raw,
            Target.ratioAtLeast(0.5),
            "one 96-reading batch per transaction on both sides"),
        new Result(
            "1 hot ingest vs COPY with the span constraint",
            dataset,
            "readings/s",
            writer,
            "raw COPY into copies of MeterStore's partitions, with their GiST span constraint",
            gist,
            null,
            String.format(
                Locale.ROOT,
                "the ceiling of a write path that keeps spans_do_not_overlap (a table without a"
                    + " declared resolution; one_operator_per_reading is the writer's since issue"
                    + " #18); that COPY reaches %.2f of raw COPY without it",
                gist / raw)));
  }

  private static List<List<Reading>> batches(Dataset data, LocalDate day) {
    List<List<Reading>> out = new ArrayList<>();
    for (int m = 0; m < data.meters(); m++) {
      out.add(data.meterDay(m, day).originals());
    }
    return out;
  }

  private static Object write(Deployment d, List<List<Reading>> batches) {
    for (List<Reading> batch : batches) {
      WriteResult result = d.hot.write(TABLE, batch, NOW);
      if (result.stored() != batch.size()) {
        throw new IllegalStateException("expected every reading stored: " + result);
      }
    }
    return null;
  }

  private static Object copy(Deployment d, String sql, List<List<Reading>> batches)
      throws Exception {
    StringBuilder text = new StringBuilder(96 * 200);
    for (List<Reading> batch : batches) {
      for (Reading r : batch) {
        CopyText.append(text, StoredRow.of(TABLE, StoredReading.accept(r, NOW)));
      }
      CopyText.send(d.raw, sql, text);
    }
    return null;
  }

  /**
   * The same parent as MeterStore's with partitions {@code LIKE} MeterStore's own (INCLUDING ALL:
   * primary key, CHECKs and both GiST exclusion constraints), attached with the same bounds.
   */
  private static void createConstrainedTable(Deployment d, Instant first, Instant end)
      throws Exception {
    String schema = "\"" + d.hot.schema() + "\"";
    try (Statement s = d.raw.createStatement()) {
      s.execute(
          "CREATE TABLE raw.ingest_gist (LIKE "
              + schema
              + ".ingest INCLUDING ALL) PARTITION BY RANGE (\"from\")");
      for (PartitionInfo info : d.hot.partitions().list(TABLE)) {
        if (!info.upperBound().isAfter(first) || !info.lowerBound().isBefore(end)) {
          continue;
        }
        String copy = "raw.ingest_gist_" + info.lowerBound().getEpochSecond();
        s.execute(
            "CREATE TABLE "
                + copy
                + " (LIKE "
                + schema
                + ".\""
                + info.name()
                + "\" INCLUDING ALL)");
        s.execute(
            "ALTER TABLE raw.ingest_gist ATTACH PARTITION "
                + copy
                + " FOR VALUES FROM ('"
                + info.lowerBound()
                + "') TO ('"
                + info.upperBound()
                + "')");
      }
    }
  }

  /** The same parent as MeterStore's (LIKE … INCLUDING ALL), plain daily partitions. */
  private static void createRawTable(Deployment d, Instant first, Instant end) throws Exception {
    createRawTable(d, TABLE.name(), first, end);
  }

  /**
   * {@code raw.<table>}: the same parent as MeterStore's table {@code table} (LIKE … INCLUDING ALL:
   * columns, primary key, CHECKs; the exclusion constraints live on MeterStore's partitions only),
   * with plain daily partitions covering {@code [first, end)}. Trusted names only.
   */
  static void createRawTable(Deployment d, String table, Instant first, Instant end)
      throws Exception {
    createRawTable(d, table, table, first, end);
  }

  /** As {@link #createRawTable(Deployment, String, Instant, Instant)}, named {@code raw.<raw>}. */
  static void createRawTable(Deployment d, String table, String raw, Instant first, Instant end)
      throws Exception {
    try (Statement s = d.raw.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS raw");
      s.execute(
          "CREATE TABLE raw."
              + raw
              + " (LIKE \""
              + d.hot.schema()
              + "\"."
              + table
              + " INCLUDING ALL) PARTITION BY RANGE (\"from\")");
      Instant dayStart =
          first.minus(Duration.ofHours(first.atZone(java.time.ZoneOffset.UTC).getHour()));
      for (Instant day = dayStart; day.isBefore(end); day = day.plus(Duration.ofDays(1))) {
        s.execute(
            "CREATE TABLE raw."
                + raw
                + "_"
                + day.getEpochSecond()
                + " PARTITION OF raw."
                + raw
                + " FOR VALUES FROM ('"
                + day
                + "') TO ('"
                + day.plus(Duration.ofDays(1))
                + "')");
      }
    }
  }
}
