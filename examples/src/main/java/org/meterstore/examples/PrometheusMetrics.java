package org.meterstore.examples;

import io.opentelemetry.exporter.prometheus.PrometheusHttpServer;
import io.opentelemetry.exporter.prometheus.TranslationStrategy;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.ExplicitBucketHistogramOptions;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.hot.subject.ErasureResult;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.maintenance.MaintenanceOutcome;

/**
 * MeterStore's metrics for Prometheus: the application installs the OpenTelemetry SDK with the
 * Prometheus exporter as its metric reader, which serves the text format on {@code
 * http://<host>:<port>/metrics} (scraped, so nothing is pushed). The Grafana dashboard {@code
 * docs/dashboards/meterstore.json} queries the names this exporter makes of MeterStore's
 * instruments: dots become underscores, the unit {@code s} adds {@code _seconds}, counters end in
 * {@code _total}, histograms are {@code _bucket}/{@code _sum}/{@code _count}, curly-brace units
 * such as {@code {row}} add nothing.
 *
 * <p>{@code main [port] [seconds]} plays a week of days through an embedded store (one maintenance
 * cycle per simulated day, then one Art. 17 erasure) and keeps serving {@code /metrics} on {@code
 * port} (default 9464) for {@code seconds}, or until Ctrl-C.
 */
public final class PrometheusMetrics {
  /** The Prometheus exporter's customary port. */
  public static final int DEFAULT_PORT = 9464;

  /** The subject whose mappings {@link #playWeek} erases. */
  static final String CUSTOMER = "customer-4711";

  /**
   * Upper bounds (seconds) of the archival-duration buckets. The SDK's default buckets (0, 5, 10,
   * 25 … 10,000) are meant for milliseconds; in seconds every window would fall into the first.
   */
  static final List<Double> ARCHIVAL_BUCKETS =
      List.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0);

  private PrometheusMetrics() {}

  /**
   * The reader that serves {@code /metrics} on {@code host:port} once registered with a meter
   * provider, with the metric names the dashboard expects (the exporter's default strategy, spelled
   * out so that a change of default cannot rename them silently).
   */
  public static PrometheusHttpServer endpoint(String host, int port) {
    return PrometheusHttpServer.builder()
        .setHost(host)
        .setPort(port)
        .setTranslationStrategy(TranslationStrategy.UNDERSCORE_ESCAPING_WITH_SUFFIXES)
        .build();
  }

  /** A meter provider reading through {@code reader}, with seconds-scale archival buckets. */
  public static SdkMeterProvider meterProvider(MetricReader reader) {
    return SdkMeterProvider.builder()
        .registerMetricReader(reader)
        .registerView(
            InstrumentSelector.builder().setName("meterstore.archival.duration").build(),
            View.builder()
                .setAggregation(
                    Aggregation.explicitBucketHistogram(
                        ExplicitBucketHistogramOptions.builder()
                            .setBucketBoundaries(ARCHIVAL_BUCKETS)
                            .build()))
                .build())
        .build();
  }

  /**
   * Seven days of {@code table} from {@code first} (a table with a subject column): each day is
   * appended at 08:00 UTC the day after, followed by one maintenance cycle at that instant; then
   * {@link #CUSTOMER} is erased. Returns the cycles' outcomes.
   */
  static List<MaintenanceOutcome> playWeek(MeterCatalog catalog, String table, LocalDate first) {
    Instant registered = first.atStartOfDay().toInstant(ZoneOffset.UTC);
    SubjectRef ref =
        catalog.subjects().registerSubject(CUSTOMER, registered, Commodity.STROM, registered);
    List<MaintenanceOutcome> outcomes = new ArrayList<>();
    Instant now = registered;
    for (int d = 0; d < 7; d++) {
      LocalDate day = first.plusDays(d);
      now = day.plusDays(1).atTime(8, 0).toInstant(ZoneOffset.UTC);
      String version = day.toString().replace("-", "") + "230000";
      catalog.table(table).append(Readings.day(day, version, ref.value()), now);
      outcomes.add(catalog.maintenance().runOnce(now));
    }
    ErasureResult erased =
        catalog.subjects().eraseSubject(CUSTOMER, "Art. 17 request #88", "support", now);
    System.out.printf("erased %d mapping(s) of %s%n", erased.count(), CUSTOMER);
    return outcomes;
  }

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_PORT;
    long seconds = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
    Path dataDir = Files.createTempDirectory("meterstore-prometheus");
    MeterStoreConfig config =
        MeterStoreConfig.parse(
            """
            data_dir = "%s"

            [privacy.erasure_keys]
            k2026 = "%s"

            [[tables]]
            name = "lastgang"
            settlement_lag = "2d"
            subject_column = "kunde"
            """
                .formatted(
                    dataDir.toString().replace('\\', '/'),
                    // use a real secret: "${METERSTORE_ERASURE_KEY}"
                    Base64.getEncoder().encodeToString(new byte[32])),
            dataDir,
            Map.of());
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stop.countDown();
                  awaitQuietly(closed);
                }));
    // Closing the SDK shuts the meter provider down, and with it the endpoint.
    SdkMeterProvider meters = meterProvider(endpoint("0.0.0.0", port));
    try (OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setMeterProvider(meters).build();
        MeterCatalog catalog = MeterStores.open(config, otel)) {
      LocalDate first = LocalDate.of(2026, 10, 20);
      catalog.createTables(first.atStartOfDay().toInstant(ZoneOffset.UTC));
      for (MaintenanceOutcome outcome : playWeek(catalog, "lastgang", first)) {
        System.out.printf(
            "%d window(s) archived, healthy=%s%n", outcome.windowsArchived(), outcome.healthy());
      }
      System.out.printf("serving http://localhost:%d/metrics (Ctrl-C stops)%n", port);
      stop.await(seconds, TimeUnit.SECONDS);
    } finally {
      closed.countDown();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
