package org.meterstore.hot.internal.write;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

/**
 * The writer's instruments (DESIGN § 10): {@code meterstore.write.rows} counts rows stored and
 * {@code meterstore.write.rows_deduplicated} redeliveries skipped, both in {@code {row}} with the
 * attribute {@code table}. Recorded after commit only, so a refused batch counts nothing.
 */
public final class WriteMetrics {
  /** The instrumentation scope name. */
  public static final String SCOPE = "org.meterstore.hot";

  private static final AttributeKey<String> TABLE = AttributeKey.stringKey("table");

  private final LongCounter rows;
  private final LongCounter deduplicated;

  /** Instruments from {@code openTelemetry}'s meter provider (a no-op one records nothing). */
  public WriteMetrics(OpenTelemetry openTelemetry) {
    Meter meter = openTelemetry.getMeter(SCOPE);
    this.rows =
        meter
            .counterBuilder("meterstore.write.rows")
            .setUnit("{row}")
            .setDescription("Rows stored by hot-tier writes (inserted, superseding or shadowed)")
            .build();
    this.deduplicated =
        meter
            .counterBuilder("meterstore.write.rows_deduplicated")
            .setUnit("{row}")
            .setDescription("Redelivered readings skipped as DUPLICATE by hot-tier writes")
            .build();
  }

  void record(String table, int stored, int duplicates) {
    Attributes attributes = Attributes.of(TABLE, table);
    if (stored > 0) {
      rows.add(stored, attributes);
    }
    if (duplicates > 0) {
      deduplicated.add(duplicates, attributes);
    }
  }
}
