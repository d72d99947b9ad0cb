package org.meterstore.maintenance.archival;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.maintenance.outcome.CompactionReport;

/**
 * The archival and tiering instruments of DESIGN § 10 (scope {@code org.meterstore.maintenance},
 * attribute {@code table}), listed in {@code docs/metrics.md}. Counters are recorded as things
 * happen; the three gauges report the value each table's last run observed, through callbacks that
 * read a map (so a table that was never run reports nothing rather than a made-up zero). Create one
 * per {@link OpenTelemetry} instance and share it between archivers: each instance registers its
 * gauge callbacks once. Thread-safe.
 */
public final class ArchivalMetrics {
  private static final AttributeKey<String> TABLE = AttributeKey.stringKey("table");

  private final LongCounter rows;
  private final DoubleHistogram duration;
  private final LongCounter failures;
  private final LongCounter deferred;
  private final LongCounter dropped;
  private final LongCounter orphans;
  private final LongCounter filesRewritten;
  private final LongCounter filesWritten;
  private final LongCounter bytesRewritten;
  private final LongCounter bytesWritten;
  private final DoubleHistogram compactionDuration;
  private final Map<String, Long> violations = new ConcurrentHashMap<>();
  private final Map<String, Double> lag = new ConcurrentHashMap<>();
  private final Map<String, Long> ahead = new ConcurrentHashMap<>();

  /** Registers the instruments with {@code otel}'s meter provider. */
  public ArchivalMetrics(OpenTelemetry otel) {
    Meter meter = otel.getMeter("org.meterstore.maintenance");
    rows =
        meter
            .counterBuilder("meterstore.archival.rows")
            .setUnit("{row}")
            .setDescription("Rows committed to the cold tier by archival")
            .build();
    duration =
        meter
            .histogramBuilder("meterstore.archival.duration")
            .setUnit("s")
            .setDescription("Time to archive one window: detach, stream, commit, digest check")
            .build();
    failures = counter(meter, "meterstore.archival.failures", "{run}", "Archival runs that failed");
    deferred =
        counter(meter, "meterstore.archival.deferred", "{run}", "Runs deferred by a lock timeout");
    dropped =
        counter(meter, "meterstore.partitions.dropped", "{partition}", "Partitions reclaimed");
    orphans =
        counter(
            meter,
            "meterstore.partitions.orphans_reclaimed",
            "{partition}",
            "Partitions left detached by an interrupted run and archived by a later one");
    filesRewritten =
        counter(
            meter,
            "meterstore.compaction.files_rewritten",
            "{file}",
            "Small data files replaced by compaction");
    filesWritten =
        counter(
            meter,
            "meterstore.compaction.files_written",
            "{file}",
            "Data files written by compaction");
    bytesRewritten =
        counter(meter, "meterstore.compaction.bytes_rewritten", "By", "Size of the files replaced");
    bytesWritten =
        counter(
            meter,
            "meterstore.compaction.bytes_written",
            "By",
            "Size of the files that replace them");
    compactionDuration =
        meter
            .histogramBuilder("meterstore.compaction.duration")
            .setUnit("s")
            .setDescription("Time to compact one table: plan, merge, write, re-read, commit")
            .build();
    meter
        .gaugeBuilder("meterstore.tiering.invariant_violations")
        .ofLongs()
        .setUnit("{row}")
        .setDescription("Hot rows below the watermark at the last check (must be 0)")
        .buildWithCallback(m -> violations.forEach((t, v) -> m.record(v, attributes(t))));
    meter
        .gaugeBuilder("meterstore.tiering.watermark_lag")
        .setUnit("s")
        .setDescription("now - W at the last run")
        .buildWithCallback(m -> lag.forEach((t, v) -> m.record(v, attributes(t))));
    meter
        .gaugeBuilder("meterstore.tiering.hot_partitions_ahead")
        .ofLongs()
        .setUnit("{partition}")
        .setDescription("Attached partitions whose upper bound is after now")
        .buildWithCallback(m -> ahead.forEach((t, v) -> m.record(v, attributes(t))));
  }

  private static LongCounter counter(Meter meter, String name, String unit, String description) {
    return meter.counterBuilder(name).setUnit(unit).setDescription(description).build();
  }

  static Attributes attributes(String table) {
    return Attributes.of(TABLE, table);
  }

  void window(String table, long rowCount, double seconds, boolean orphan) {
    rows.add(rowCount, attributes(table));
    duration.record(seconds, attributes(table));
    if (orphan) {
      orphans.add(1, attributes(table));
    }
  }

  void compacted(String table, CompactionReport report, double seconds) {
    Attributes a = attributes(table);
    filesRewritten.add(report.filesRewritten(), a);
    filesWritten.add(report.filesWritten(), a);
    bytesRewritten.add(report.bytesBefore(), a);
    bytesWritten.add(report.bytesAfter(), a);
    compactionDuration.record(seconds, a);
  }

  void failed(String table) {
    failures.add(1, attributes(table));
  }

  void deferred(String table) {
    deferred.add(1, attributes(table));
  }

  void dropped(String table) {
    dropped.add(1, attributes(table));
  }

  void observed(String table, long rowsBelowW, double lagSeconds, long partitionsAhead) {
    violations.put(table, rowsBelowW);
    lag.put(table, lagSeconds);
    ahead.put(table, partitionsAhead);
  }
}
