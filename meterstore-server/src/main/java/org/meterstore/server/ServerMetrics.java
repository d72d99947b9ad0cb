package org.meterstore.server;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

/**
 * The server's instruments (OpenTelemetry API only; docs/metrics.md): statements by outcome and
 * their duration, rows and bytes sent, refused sign-ins.
 */
final class ServerMetrics {
  static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");

  private final LongCounter statements;
  private final DoubleHistogram duration;
  private final LongCounter rows;
  private final LongCounter bytes;
  private final LongCounter authFailures;

  ServerMetrics(OpenTelemetry otel) {
    Meter meter = otel.getMeter("org.meterstore.server");
    statements =
        meter
            .counterBuilder("meterstore.server.statements")
            .setDescription(
                "Statements the SQL server ran, by outcome (ok, error, refused, cancelled)")
            .build();
    duration =
        meter
            .histogramBuilder("meterstore.server.statement.duration")
            .setUnit("s")
            .setDescription("Time from a statement's start to its last batch")
            .build();
    rows =
        meter
            .counterBuilder("meterstore.server.rows_sent")
            .setDescription("Rows the SQL server sent")
            .build();
    bytes =
        meter
            .counterBuilder("meterstore.server.bytes_sent")
            .setUnit("By")
            .setDescription("Arrow buffer bytes the SQL server sent")
            .build();
    authFailures =
        meter
            .counterBuilder("meterstore.server.auth.failures")
            .setDescription("Refused sign-ins (wrong user name or password)")
            .build();
  }

  void statement(String outcome, long nanos) {
    statements.add(1, Attributes.of(OUTCOME, outcome));
    duration.record(nanos / 1e9, Attributes.of(OUTCOME, outcome));
  }

  void sent(long rowCount, long byteCount) {
    rows.add(rowCount);
    bytes.add(byteCount);
  }

  void authFailure() {
    authFailures.add(1);
  }
}
