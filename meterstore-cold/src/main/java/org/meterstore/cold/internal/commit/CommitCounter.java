package org.meterstore.cold.internal.commit;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;

/**
 * Counts cold commit attempts by table and result ({@code committed}, {@code refused}, {@code
 * unknown}, {@code lost_race}) as {@code meterstore.cold.commit_attempts}: a rising share of
 * refused or unknown attempts is the first sign of a contended or unhealthy catalog.
 */
public final class CommitCounter {
  private static final AttributeKey<String> TABLE = AttributeKey.stringKey("table");
  private static final AttributeKey<String> RESULT = AttributeKey.stringKey("result");

  private final LongCounter counter;

  /** A counter recorded through {@code otel} (a no-op until the application installs an SDK). */
  public CommitCounter(OpenTelemetry otel) {
    this.counter =
        otel.getMeter("org.meterstore.cold")
            .counterBuilder("meterstore.cold.commit_attempts")
            .setUnit("{attempt}")
            .setDescription("Cold commit attempts by result")
            .build();
  }

  /** Counts one attempt. */
  public void record(String table, String result) {
    counter.add(1, Attributes.of(TABLE, table, RESULT, result));
  }
}
