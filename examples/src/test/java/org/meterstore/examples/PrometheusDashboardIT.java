package org.meterstore.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.exporter.prometheus.PrometheusHttpServer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The Grafana dashboard against what MeterStore really exports: the SDK with {@link
 * PrometheusMetrics}'s endpoint, real work on the test PostgreSQL and an Iceberg warehouse under
 * target/ (the example's week of archival and an erasure, plus a deferral behind a long reader and
 * a failed run), then one HTTP scrape of {@code /metrics}. Every metric the dashboard's queries
 * name must be in that scrape, so renaming an instrument (or a change of the exporter's naming)
 * fails here.
 */
@ExtendWith(PostgresExtension.class)
class PrometheusDashboardIT {
  private static final Path DASHBOARD = Path.of("..", "docs", "dashboards", "meterstore.json");
  private static final LocalDate FIRST = LocalDate.of(2026, 10, 20);
  private static final String TABLE = "lastgang";

  /** PromQL words that are not metric names: functions (followed by '('), keywords, grouping. */
  private static final Set<String> PROMQL_WORDS =
      Set.of(
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "and",
          "or",
          "unless",
          "offset");

  private static Path dir;
  private static TestDatabase db;
  private static SdkMeterProvider meters;
  private static OpenTelemetrySdk otel;
  private static int port;
  private static List<MaintenanceOutcome> week;
  private static TableOutcome deferred;
  private static TableOutcome resumed;
  private static TableOutcome failed;
  private static String scrape;
  private static HttpResponse<byte[]> protobuf;

  /** What a Prometheus server with native histograms enabled asks for first. */
  private static final String PROTOBUF =
      "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

  @BeforeAll
  static void runMeterStoreAndScrape(TestDatabase database) throws Exception {
    db = database;
    dir =
        Files.createDirectories(
                Path.of("target", "prometheus-it", "run-" + ProcessHandle.current().pid()))
            .toAbsolutePath();
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    PrometheusHttpServer endpoint = PrometheusMetrics.endpoint("127.0.0.1", port);
    meters = PrometheusMetrics.meterProvider(endpoint);
    otel = OpenTelemetrySdk.builder().setMeterProvider(meters).build();

    try (MeterCatalog catalog = MeterStores.open(config("1d"), otel)) {
      catalog.createTables(FIRST.atStartOfDay().toInstant(java.time.ZoneOffset.UTC));
      week = PrometheusMetrics.playWeek(catalog, TABLE, FIRST);
      // One more day, then a cycle behind a reader that holds the table: DEFERRED.
      Instant now = Instant.parse("2026-10-28T08:00:00Z");
      catalog
          .table(TABLE)
          .append(Readings.day(LocalDate.of(2026, 10, 27), "20261027230000", null), now);
      try (Connection reader = db.connect()) {
        reader.setAutoCommit(false);
        try (Statement s = reader.createStatement()) {
          s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + TABLE + "\"").close();
        }
        deferred = catalog.maintenance().runOnce(now).row(TABLE).orElseThrow();
        reader.rollback();
      }
      resumed = catalog.maintenance().runOnce(now).row(TABLE).orElseThrow();
    }
    // The same table declared with another archival step: a FAILED (CONFIG) run.
    try (MeterCatalog changed = MeterStores.open(config("12h"), otel)) {
      failed =
          changed
              .maintenance()
              .runOnce(Instant.parse("2026-10-28T09:00:00Z"))
              .row(TABLE)
              .orElseThrow();
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    scrape = response.body();
    protobuf =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .header("Accept", PROTOBUF)
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    Files.writeString(dir.resolve("metrics.txt"), scrape);
  }

  @AfterAll
  static void close() {
    if (otel != null) {
      otel.close();
    }
  }

  @Test
  void theWorkDidWhatTheDashboardShows() {
    assertThat(week.stream().mapToLong(MaintenanceOutcome::windowsArchived).sum()).isPositive();
    assertThat(week).allMatch(MaintenanceOutcome::healthy);
    assertThat(deferred.status()).isEqualTo(Status.DEFERRED);
    assertThat(resumed.status()).isEqualTo(Status.ARCHIVED);
    assertThat(failed.status()).isEqualTo(Status.FAILED);
  }

  @Test
  void everyMetricTheDashboardQueriesIsOneMeterStoreExports() throws IOException {
    Set<String> queried = dashboardMetricNames();
    Set<String> exported = exportedSampleNames(scrape);

    assertThat(queried)
        .as("the alerting instruments of docs/operations.md")
        .contains(
            "meterstore_tiering_invariant_violations",
            "meterstore_tiering_watermark_lag_seconds",
            "meterstore_tiering_hot_partitions_ahead",
            "meterstore_archival_failures_total",
            "meterstore_archival_deferred_total",
            "meterstore_archival_rows_total",
            "meterstore_archival_duration_seconds_bucket",
            "meterstore_subjects_erased_total");
    assertThat(exported).as("scraped from /metrics:\n" + scrape).containsAll(queried);
  }

  @Test
  void theLabelsTheDashboardGroupsByAreOnTheSeries() {
    assertThat(scrape)
        .containsPattern("(?m)^meterstore_subjects_erased_total\\{[^}]*trigger=\"request\"")
        .containsPattern("(?m)^meterstore_tiering_watermark_lag_seconds\\{[^}]*table=\"lastgang\"")
        .containsPattern("(?m)^meterstore_archival_deferred_total\\{[^}]*table=\"lastgang\"")
        .containsPattern(
            "(?m)^meterstore_archival_duration_seconds_bucket\\{[^}]*le=\"0\\.5\"[^}]*\\}");
    assertThat(scrape)
        .containsPattern("(?m)^meterstore_tiering_invariant_violations\\{[^}]*\\} 0(\\.0)?$");
  }

  @Test
  void aScrapeAskingForProtobufIsAnsweredToo() {
    // The exporter's protobuf format needs protobuf-java 4.x, which examples/pom.xml pins over
    // Calcite's 3.25.8; with the older runtime the exporter drops the connection instead.
    assertThat(protobuf.statusCode()).isEqualTo(200);
    assertThat(protobuf.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/vnd.google.protobuf"));
    assertThat(new String(protobuf.body(), java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("meterstore_archival_rows_total");
  }

  @Test
  void theDashboardTakesItsPrometheusDataSourceFromATemplateVariable() throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    JsonNode variables = dashboard.get("templating").get("list");
    assertThat(variables)
        .anySatisfy(
            v -> {
              assertThat(v.get("name").asText()).isEqualTo("datasource");
              assertThat(v.get("type").asText()).isEqualTo("datasource");
              assertThat(v.get("query").asText()).isEqualTo("prometheus");
            });
    List<JsonNode> sources = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      if (!panel.get("type").asText().equals("row")) {
        sources.add(panel.get("datasource"));
        panel.get("targets").forEach(t -> sources.add(t.get("datasource")));
      }
    }
    assertThat(sources)
        .isNotEmpty()
        .allSatisfy(s -> assertThat(s.get("uid").asText()).isEqualTo("${datasource}"));
  }

  private static MeterStoreConfig config(String archivalStep) {
    String toml =
        """
        [hot]
        url = "%s"
        user = "%s"
        password = "%s"
        ddl_lock_timeout = "1s"
        [cold]
        catalog = "jdbc"
        warehouse = "%s"
        [privacy.erasure_keys]
        k2026 = "%s"
        [[tables]]
        name = "%s"
        settlement_lag = "2d"
        archival_step = "%s"
        subject_column = "kunde"
        """
            .formatted(
                db.jdbcUrl(),
                db.user(),
                db.password(),
                dir.resolve("warehouse").toUri(),
                Base64.getEncoder().encodeToString(new byte[32]),
                TABLE,
                archivalStep);
    return MeterStoreConfig.parse(toml, dir, Map.of());
  }

  /** The metric names in every {@code expr} and variable query of the dashboard. */
  private static Set<String> dashboardMetricNames() throws IOException {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    List<String> queries = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> queries.add(e.asText()));
    assertThat(queries).hasSizeGreaterThanOrEqualTo(9);
    for (JsonNode variable : dashboard.get("templating").get("list")) {
      if (variable.get("type").asText().equals("query")) {
        queries.add(variable.get("definition").asText());
      }
    }
    Set<String> names = new TreeSet<>();
    queries.forEach(q -> names.addAll(metricNames(q)));
    return names;
  }

  /**
   * The metric names in one PromQL expression: identifiers left once strings, label matchers,
   * ranges and grouping clauses are removed, that are neither functions nor keywords.
   */
  static Set<String> metricNames(String promql) {
    String s =
        promql
            .replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
            // label_values(metric, label): the label is not a metric
            .replaceAll("label_values\\(\\s*([A-Za-z_:][A-Za-z0-9_:]*)\\s*,[^)]*\\)", "$1");
    Set<String> names = new TreeSet<>();
    Matcher m = Pattern.compile("(?<![\\w.$])([A-Za-z_:][A-Za-z0-9_:]*)(\\s*\\()?").matcher(s);
    while (m.find()) {
      if (m.group(2) == null && !PROMQL_WORDS.contains(m.group(1))) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /** The names of the samples in a Prometheus text-format scrape (comments skipped). */
  private static Set<String> exportedSampleNames(String text) {
    Set<String> names = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }
}
