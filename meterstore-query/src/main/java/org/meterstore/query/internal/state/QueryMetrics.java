package org.meterstore.query.internal.state;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import org.meterstore.query.internal.cold.ColdMetrics;

/**
 * The query instruments of DESIGN § 10, recorded through the OpenTelemetry API (no-ops until the
 * application installs an SDK). Planning and scanning are two instruments: one duration recorded at
 * plan time would hide a slow scan behind fast planning.
 */
public final class QueryMetrics {
  static final AttributeKey<String> TABLE = AttributeKey.stringKey("table");
  static final AttributeKey<String> TIER = AttributeKey.stringKey("tier");
  static final AttributeKey<String> PLAN_CACHE = AttributeKey.stringKey("plan_cache");
  static final AttributeKey<String> PATH = AttributeKey.stringKey("path");
  static final AttributeKey<String> RESOLUTION = AttributeKey.stringKey("resolution");

  private final DoubleHistogram planDuration;
  private final DoubleHistogram scanDuration;
  private final LongCounter coldRows;
  private final LongCounter coldRowsDecoded;
  private final LongCounter stateReads;

  /** Instruments on {@code otel}'s meter {@code org.meterstore.query}. */
  public QueryMetrics(OpenTelemetry otel) {
    Meter meter = otel.getMeter("org.meterstore.query");
    planDuration =
        meter
            .histogramBuilder("meterstore.query.plan_duration")
            .setUnit("s")
            .setDescription(
                "Time to plan a statement or find its plan in the cache (plan_cache = hit,"
                    + " miss or off), recorded once per table it reads")
            .build();
    scanDuration =
        meter
            .histogramBuilder("meterstore.query.scan_duration")
            .setUnit("s")
            .setDescription("Time from opening a tier scan until it is closed")
            .build();
    coldRows =
        meter
            .counterBuilder("meterstore.query.cold.rows")
            .setUnit("{row}")
            .setDescription(
                "Cold rows read from storage, by path (columnar or records) and resolution (elided"
                    + " or resolved)")
            .build();
    coldRowsDecoded =
        meter
            .counterBuilder("meterstore.query.cold.rows_decoded")
            .setUnit("{row}")
            .setDescription(
                "Cold rows the columnar reader decoded from Parquet pages to return the columnar"
                    + " rows of meterstore.query.cold.rows (more where pages hold rows the page"
                    + " indexes could not skip)")
            .build();
    stateReads =
        meter
            .counterBuilder("meterstore.query.state_reads")
            .setUnit("{read}")
            .setDescription(
                "Reads of a table's state (W, snapshot, hot partitions, pin) for an execution, by"
                    + " path: one_trip (the catalog pointer read with the hot state) or"
                    + " catalog_first")
            .build();
  }

  /**
   * Records one read of {@code table}'s state for an execution: {@code path} is {@code one_trip}
   * (the catalog's pointer read with the hot state) or {@code catalog_first} (the catalog asked in
   * a round trip of its own).
   */
  void stateRead(String table, String path) {
    stateReads.add(1, Attributes.of(TABLE, table, PATH, path));
  }

  /** The cold executor's view of these instruments. */
  public ColdMetrics cold() {
    return new ColdMetrics() {
      @Override
      public void rowsRead(String table, String path, String resolution, long rows) {
        coldRowsRead(table, path, resolution, rows);
      }

      @Override
      public void rowsDecoded(String table, long rows) {
        coldRowsDecoded.add(rows, Attributes.of(TABLE, table));
      }
    };
  }

  /**
   * Records {@code rows} cold rows of {@code table} read through {@code path} ({@code columnar} or
   * {@code records}) with {@code resolution} ({@code elided} or {@code resolved}).
   */
  public void coldRowsRead(String table, String path, String resolution, long rows) {
    coldRows.add(rows, Attributes.of(TABLE, table, PATH, path, RESOLUTION, resolution));
  }

  /**
   * Records the planning time of a statement that reads {@code table}; {@code cache} is {@code
   * hit}, {@code miss} or {@code off} (not cacheable).
   */
  public void planned(String table, long nanos, String cache) {
    planDuration.record(nanos / 1e9, Attributes.of(TABLE, table, PLAN_CACHE, cache));
  }

  /** Records one finished scan of {@code tier} ({@code hot} or {@code cold}). */
  public void scanned(String table, String tier, long nanos) {
    scanDuration.record(nanos / 1e9, Attributes.of(TABLE, table, TIER, tier));
  }
}
