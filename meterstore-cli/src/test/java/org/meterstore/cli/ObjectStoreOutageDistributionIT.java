package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CachingCatalog;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.cli.demo.DemoMonth;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.testing.InProcessRestCatalog;
import org.meterstore.testing.ObjectStoreFront;
import org.meterstore.testing.ObjectStoreServer;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Issue #22: an S3 deployment (MinIO where Docker answers, s3proxy on loopback otherwise;
 * path-style, the secret through {@code ${ENV}}) whose object store stops — the {@link
 * ObjectStoreFront} before it refuses connections, as a stopped server's port does — run from the
 * distribution's {@code lib/} alone. With the JDBC catalog (metadata in the bucket) and with a REST
 * catalog (up; metadata served from its cache): spanning queries fail retryable (exit 75) within
 * the bound, hot-only queries answer to the last decimal, {@code maintain --once} reports a
 * retryable failure (75) promptly in a few log lines, {@code status} answers promptly; after a
 * restart the next cycle archives and the answers are unchanged. The S3 server and the REST catalog
 * run in this JVM; the commands see only their endpoints.
 */
@ExtendWith(PostgresExtension.class)
class ObjectStoreOutageDistributionIT {
  /**
   * The outage bound the defaults promise for a stopped store, per command (JVM start included), on
   * a machine with room to spare.
   */
  private static final long BOUND_MILLIS = 10_000;

  /**
   * What a stopped store may add to a command, over the same run's hot-only query (which never
   * touches the store): three refused attempts with pauses of at most 1 s, and margin. On a busy
   * machine (the build runs two modules side by side on two cores) a child JVM alone can take 10 s
   * to start and plan; a retry storm (minutes) or a connect timeout per call still fails this.
   */
  private static final long OUTAGE_MILLIS = 8_000;

  private static final String CREATED = "2026-03-01T00:00:00Z";
  private static final String ARCHIVED = "2026-03-05T00:00:00Z";
  private static final String LATER = "2026-03-06T12:00:00Z";
  private static final String SECRET = "s3-secret-value";
  private static final Map<String, String> ENV = Map.of("S3_SECRET", SECRET);

  private static UnpackedDistribution dist;
  private static TestDatabase db;
  private static ObjectStoreServer server;
  private static ObjectStoreFront front;
  private static int port;
  private static boolean running;

  @BeforeAll
  static void start(TestDatabase database) throws Exception {
    db = database;
    dist = UnpackedDistribution.unpack("outage-it");
    server = ObjectStoreServer.start("meterstore", SECRET);
    server.createBucket("lake");
    front = ObjectStoreFront.before(server.endpoint());
    port = front.endpoint().getPort();
    running = true;
  }

  @AfterAll
  static void stop() throws Exception {
    front.close();
    server.close();
  }

  /** Each test starts with the store up, whatever the one before left behind. */
  @BeforeEach
  void storeUp() throws Exception {
    if (!running) {
      restartStore();
    }
  }

  /** The store's port refuses connections and open ones are reset. */
  private static void stopStore() throws Exception {
    front.refuse();
    running = false;
  }

  /** The same port accepts again, over the same objects. */
  private static void restartStore() throws Exception {
    front.pass();
    running = true;
  }

  private static S3Settings s3() {
    return S3Settings.pathStyle(
        URI.create("http://127.0.0.1:" + port), "eu-central-1", "meterstore", SECRET);
  }

  @Test
  void aJdbcCatalogDeploymentFailsFastAndKeepsTheHotWindowWhileTheStoreIsDown() throws Exception {
    outage("jdbcstore", "catalog = \"jdbc\"\nwarehouse = \"s3://lake/jdbc\"\n");
  }

  @Test
  void aRestCatalogDeploymentFailsFastAndKeepsTheHotWindowWhileTheStoreIsDown() throws Exception {
    ColdConfig backendConfig =
        ColdConfig.jdbc(db.jdbcUrl(), db.user(), db.password(), "s3://lake/rest").withS3(s3());
    Catalog backend =
        CatalogUtil.buildIcebergCatalog(
            "rest_backend",
            CatalogFactory.properties(backendConfig),
            new org.apache.hadoop.conf.Configuration());
    // A REST catalog keeps serving table metadata it holds while the object store is down.
    try (InProcessRestCatalog rest =
        new InProcessRestCatalog(
            CachingCatalog.wrap(backend, false, 3_600_000), (SupportsNamespaces) backend)) {
      outage("reststore", "catalog = \"rest\"\nuri = \"" + rest.uri() + "\"\n");
    } finally {
      ((AutoCloseable) backend).close();
    }
  }

  /**
   * Signing by the REST catalog and credentials it vends need classes beyond plain S3 access
   * ({@code S3V4RestSignerClient}, {@code VendedCredentialsProvider}, the SDK's auth modules): an
   * {@code S3FileIO} in a class loader over {@code lib/} alone (no test class path) with each
   * switched on builds its client and makes a request, which fails only for want of a server.
   */
  @Test
  void theRestCatalogsSignerAndVendedCredentialsLoadFromTheJarsInLib() throws Exception {
    Map<String, String> base =
        Map.of(
            "s3.endpoint", "http://127.0.0.1:" + port,
            "s3.path-style-access", "true",
            "client.region", "eu-central-1",
            "s3.retry.num-retries", "0");
    Map<String, String> signer = new java.util.HashMap<>(base);
    signer.put("s3.remote-signing-enabled", "true");
    signer.put("s3.signer.uri", "http://127.0.0.1:1");
    signer.put("s3.access-key-id", "meterstore");
    signer.put("s3.secret-access-key", SECRET);
    Map<String, String> vended = new java.util.HashMap<>(base);
    vended.put("client.refresh-credentials-enabled", "true");
    vended.put("client.refresh-credentials-endpoint", "http://127.0.0.1:1/v1/credentials");
    try (URLClassLoader lib =
        new URLClassLoader(dist.libClassPath(), ClassLoader.getPlatformClassLoader())) {
      for (Map<String, String> props : List.of(signer, vended)) {
        Throwable failure = LibFileIo.exists(lib, props, "s3://lake/probe");
        assertThat(failure).as("a request without a signer or credentials server").isNotNull();
        for (Throwable t = failure; t != null; t = t.getCause()) {
          assertThat(t)
              .as("loaded from lib/: " + props.keySet())
              .isNotInstanceOf(LinkageError.class)
              .isNotInstanceOf(ClassNotFoundException.class);
        }
      }
    }
  }

  private static void outage(String name, String coldCatalog) throws Exception {
    Path work = Files.createDirectories(dist.dir.resolve(name));
    Path toml = work.resolve("meterstore.toml");
    Files.writeString(toml, toml(name, coldCatalog));
    List<Reading> written = writeAndArchive(toml);
    Instant w = watermark(toml);
    assertThat(w).isAfter(Instant.parse(CREATED)).isBefore(Instant.parse(ARCHIVED));
    String spanning = "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM strom";
    String hotOnly = spanning + " WHERE \"from\" >= TIMESTAMP '" + sqlTime(w) + "'";
    String coldOnly = spanning + " WHERE \"from\" < TIMESTAMP '" + sqlTime(w) + "'";
    Answer all = Answer.of(written, Instant.MIN);
    Answer hot = Answer.of(written, w);
    assertThat(answer(toml, spanning)).isEqualTo(all);

    stopStore();
    WhileDown queries = queriesWhileDown(name, work, toml, spanning, coldOnly, hotOnly, hot);
    String printed = queries.printed() + maintenanceWhileDown(name, work, queries.bound());

    restartStore();
    UnpackedDistribution.Run again =
        dist.launcher(work, ENV, "--format", "json", "maintain", "--once", "--now", LATER);
    assertThat(again.code()).as(again.toString()).isZero();
    assertThat(watermark(toml)).isAfter(w);
    assertThat(answer(toml, spanning)).isEqualTo(all);
    assertThat(answer(toml, hotOnly)).isEqualTo(hot);
    assertThat(printed + again.out()).doesNotContain(SECRET);
  }

  /** What the children printed while the store was down, and the bound the baseline gave. */
  private record WhileDown(String printed, long bound) {}

  /**
   * With the store stopped: the hot-only query answered (the baseline of the bound), cold and
   * spanning queries refused (retryable, typed, within the bound).
   */
  private static WhileDown queriesWhileDown(
      String name,
      Path work,
      Path toml,
      String spanning,
      String coldOnly,
      String hotOnly,
      Answer hot)
      throws Exception {
    UnpackedDistribution.Run hotAnswer = query(work, hotOnly);
    assertThat(hotAnswer.code()).as(hotAnswer.toString()).isZero();
    assertThat(Answer.of(hotAnswer)).isEqualTo(hot);
    System.out.printf(
        "%s: hot-only query with the store down: exit %d after %d ms, %d stderr lines%n",
        name, hotAnswer.code(), hotAnswer.millis(), hotAnswer.errLines());
    long bound = bound(hotAnswer);

    UnpackedDistribution.Run refused = query(work, spanning);
    assertThat(refused.code()).as(refused.toString()).isEqualTo(ExitCode.RETRYABLE);
    assertThat(refused.millis()).as(refused.toString()).isLessThanOrEqualTo(bound);
    assertThat(refused.err()).as(refused.toString()).contains("cold");
    assertThat(refused.errLines()).as(refused.toString()).isLessThanOrEqualTo(3);
    System.out.printf(
        "%s: spanning query with the store down: exit %d after %d ms%n%s%n",
        name, refused.code(), refused.millis(), refused.err());

    assertRefusedTypedWithinTheBound(toml, spanning, coldOnly);

    return new WhileDown(refused.err() + hotAnswer.out(), bound);
  }

  /**
   * With the store stopped: {@code maintain --once} fails every table retryably, promptly, in one
   * log line and one summary line each; {@code status} reports every table unhealthy promptly.
   */
  private static String maintenanceWhileDown(String name, Path work, long bound) throws Exception {
    UnpackedDistribution.Run maintain =
        dist.launcher(work, ENV, "--format", "json", "maintain", "--once", "--now", LATER);
    assertThat(maintain.code()).as(maintain.toString()).isEqualTo(ExitCode.RETRYABLE);
    assertThat(maintain.millis()).as(maintain.toString()).isLessThanOrEqualTo(bound);
    System.out.printf(
        "%s: maintain --once with the store down: exit %d after %d ms, %d stderr lines%n%s%n",
        name, maintain.code(), maintain.millis(), maintain.errLines(), maintain.err());
    // one log line and one summary line per failed table (two tables), no stack trace
    assertThat(maintain.errLines()).as(maintain.toString()).isLessThanOrEqualTo(4);
    assertThat(maintain.err()).doesNotContain("\tat ");
    for (var table : maintain.json().get("tables")) {
      assertThat(table.get("status").asText()).as(maintain.toString()).isEqualTo("FAILED");
    }

    UnpackedDistribution.Run status =
        dist.launcher(work, ENV, "--format", "json", "status", "--now", LATER);
    assertThat(status.millis()).as(status.toString()).isLessThanOrEqualTo(bound);
    assertThat(status.code()).as(status.toString()).isEqualTo(ExitCode.ERROR);
    assertThat(status.json().get("healthy").asBoolean()).isFalse();
    assertThat(status.json().get("problems").toString())
        .as(status.toString())
        // the JDBC catalog's metadata is in the bucket; the REST catalog serves it itself
        .contains(name.startsWith("rest") ? "storage_unreachable" : "watermark_unreadable")
        .contains("strom", "gas");
    System.out.printf(
        "%s: status with the store down: exit %d after %d ms%n%s%s%n",
        name, status.code(), status.millis(), status.out(), status.err());

    return maintain.err() + status.out() + status.err();
  }

  /**
   * Through JDBC in this JVM (the child's exit code shows retryable, not the kind): each statement
   * fails with a transient SQL error whose cause is {@code STORAGE}, within the bound.
   */
  private static void assertRefusedTypedWithinTheBound(Path toml, String... statements)
      throws Exception {
    try (MeterCatalog catalog = open(toml);
        Connection c = catalog.connection();
        Statement st = c.createStatement()) {
      for (String sql : statements) {
        long started = System.nanoTime();
        assertThatThrownBy(() -> st.executeQuery(sql).next())
            .as(sql)
            .isInstanceOf(SQLTransientException.class)
            .hasCauseInstanceOf(MeterStoreException.class)
            .satisfies(
                e -> {
                  MeterStoreException cause = (MeterStoreException) e.getCause();
                  assertThat(cause.kind()).isEqualTo(ErrorKind.STORAGE);
                  assertThat(cause.isRetryable()).isTrue();
                });
        assertThat(Duration.ofNanos(System.nanoTime() - started))
            .isLessThan(Duration.ofSeconds(10));
      }
    }
  }

  /**
   * The bound for a command while the store is down: {@link #BOUND_MILLIS}, or more when the same
   * run's command that never touches the store ({@code baseline}) shows the machine is busy.
   */
  private static long bound(UnpackedDistribution.Run baseline) {
    return Math.max(BOUND_MILLIS, baseline.millis() + OUTAGE_MILLIS);
  }

  /** {@code sql}'s count and sum through JDBC in this JVM (the child JVMs are the slow part). */
  private static Answer answer(Path toml, String sql) throws Exception {
    try (MeterCatalog catalog = open(toml);
        Connection c = catalog.connection();
        Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return new Answer(rs.getLong(1), rs.getBigDecimal(2).stripTrailingZeros());
    }
  }

  private static UnpackedDistribution.Run query(Path work, String sql) throws Exception {
    return dist.launcher(work, ENV, "--format", "json", "query", "--now", LATER, sql);
  }

  private static String toml(String name, String coldCatalog) {
    String s3 =
        "[cold.s3]\n"
            + "endpoint = \"http://127.0.0.1:"
            + port
            + "\"\n"
            + "region = \"eu-central-1\"\n"
            + "access_key_id = \"meterstore\"\n"
            + "secret_access_key = \"${S3_SECRET}\"\n";
    return CliIT.toml(db, Path.of("unused"), "")
        .replaceFirst("catalog = \"jdbc\"\nwarehouse = \"[^\"]*\"\n", "")
        .replace("[privacy]\n", s3 + "[privacy]\n")
        .replace("[hot]\n", "[hot]\nschema = \"" + name + "\"\n")
        .replace("[cold]\n", "[cold]\nnamespace = \"" + name + "\"\n" + coldCatalog);
  }

  /**
   * Creates the tables, writes 1–4 March of the demo's strom readings and archives what is due on 5
   * March, in this JVM (the setup, not under test); returns the readings written.
   */
  private static List<Reading> writeAndArchive(Path toml) {
    List<Reading> written = new ArrayList<>();
    try (MeterCatalog catalog = open(toml)) {
      catalog.createTables(Instant.parse(CREATED));
      DemoMonth demo = new DemoMonth(3, YearMonth.of(2026, 3), 7);
      for (int d = 1; d <= 4; d++) {
        List<Reading> day =
            demo.deliveries(LocalDate.of(2026, 3, d)).stream()
                .filter(x -> x.kind() == DemoMonth.Kind.ORIGINAL)
                .filter(x -> x.table().equals(DemoMonth.STROM))
                .flatMap(x -> x.readings().stream())
                .toList();
        catalog.table("strom").append(day, Instant.parse(CREATED));
        written.addAll(day);
      }
      catalog.archive(Instant.parse(ARCHIVED), 100);
    }
    return written;
  }

  private static Instant watermark(Path toml) {
    try (MeterCatalog catalog = open(toml)) {
      return catalog.table("strom").watermark();
    }
  }

  private static MeterCatalog open(Path toml) {
    return MeterStores.open(
        MeterStoreConfig.load(toml, Map.of("S3_SECRET", SECRET)), OpenTelemetry.noop());
  }

  private static String sqlTime(Instant t) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").format(t.atOffset(ZoneOffset.UTC));
  }

  /** A count and an energy sum, compared to the last decimal. */
  private record Answer(long readings, BigDecimal energy) {
    static Answer of(List<Reading> written, Instant from) {
      List<Reading> rows = written.stream().filter(r -> !r.from().isBefore(from)).toList();
      BigDecimal sum = rows.stream().map(Reading::value).reduce(BigDecimal.ZERO, BigDecimal::add);
      return new Answer(rows.size(), sum.stripTrailingZeros());
    }

    static Answer of(UnpackedDistribution.Run run) {
      var row = run.json().get("rows").get(0);
      return new Answer(
          row.get("readings").asLong(),
          new BigDecimal(row.get("energy").asText()).stripTrailingZeros());
    }
  }
}
