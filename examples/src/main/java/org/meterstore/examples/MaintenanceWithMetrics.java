package org.meterstore.examples;

import io.opentelemetry.exporter.logging.LoggingMetricExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * The maintenance loop with an OpenTelemetry SDK installed by the application: MeterStore records
 * through the API it is given, and the SDK's logging exporter prints every metric (archival rows
 * and durations, watermark lag, partitions ahead, write counters) to the console. Runs a week of
 * days, one maintenance cycle per simulated day; a production service would call {@code
 * catalog.maintenance().interval(Duration.ofMinutes(15)).spawn()} instead and close the handle on
 * shutdown.
 */
public final class MaintenanceWithMetrics {
  private MaintenanceWithMetrics() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Files.createTempDirectory("meterstore-metrics");
    MeterStoreConfig config =
        MeterStoreConfig.parse(
            """
            data_dir = "%s"

            [[tables]]
            name = "lastgang"
            settlement_lag = "2d"
            """
                .formatted(dataDir.toString().replace('\\', '/')),
            dataDir,
            Map.of());
    SdkMeterProvider meters =
        SdkMeterProvider.builder()
            .registerMetricReader(
                PeriodicMetricReader.builder(LoggingMetricExporter.create())
                    .setInterval(Duration.ofHours(1))
                    .build())
            .build();
    try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setMeterProvider(meters).build();
        MeterCatalog catalog = MeterStores.open(config, otel)) {
      LocalDate first = LocalDate.of(2026, 10, 20);
      catalog.createTables(first.atStartOfDay(java.time.ZoneOffset.UTC).toInstant());
      for (int d = 0; d < 7; d++) {
        LocalDate day = first.plusDays(d);
        Instant now = day.plusDays(1).atTime(8, 0).toInstant(java.time.ZoneOffset.UTC);
        catalog
            .table("lastgang")
            .append(Readings.day(day, day.toString().replace("-", "") + "230000", null), now);
        MaintenanceOutcome outcome = catalog.maintenance().runOnce(now);
        System.out.printf(
            "%s: %d windows archived, healthy=%s%n",
            now, outcome.windowsArchived(), outcome.healthy());
      }
      meters.forceFlush().join(10, java.util.concurrent.TimeUnit.SECONDS);
    }
  }
}
