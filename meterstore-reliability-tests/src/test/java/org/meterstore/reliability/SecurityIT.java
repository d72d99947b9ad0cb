package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.opentelemetry.api.OpenTelemetry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.Tiers;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * Security through the public surface. (1) SQL is read-only: every JDBC path that could change data
 * — {@code execute}, {@code executeUpdate}, {@code executeQuery}, batches, prepared statements,
 * calls, multi-statement and comment tricks, a writable connection, the connection behind a
 * statement or result set — is refused, and afterwards both tiers are exactly as before. Values are
 * bound, so string-literal tricks are just values. (2) No secret — a PostgreSQL password, one
 * inside a JDBC URL as user info or as {@code ?password=}, an S3 secret key, a {@code ${ENV}} value
 * — appears in a log line, an exception message or cause, or a {@code toString()}. Identifier
 * injection through TOML and {@code TableDefinition} is covered by {@link HostileInputIT}.
 */
@ExtendWith(PostgresExtension.class)
class SecurityIT {
  static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  static final String SECRET = "S3cret";
  static final String READ_ONLY = "25006";

  @TempDir static Path dir;
  static TestDatabase db;
  static MeterCatalog catalog;
  static StoreState state;

  @BeforeAll
  static void openAndSeed(TestDatabase database) throws Exception {
    db = database;
    catalog = MeterStores.open(write("meterstore.toml", toml("", "")), OpenTelemetry.noop());
    catalog.createTables(MAR2);
    List<Reading> seed = new ArrayList<>();
    for (Instant day : List.of(MAR2, MAR3)) {
      for (int meter = 1; meter <= 2; meter++) {
        seed.add(
            Reading.builder()
                .malo(Workload.malo(meter))
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(day, day.plus(Duration.ofMinutes(15)))
                .value("2.5")
                .version("20260301000000")
                .operator(Workload.OPERATOR)
                .build());
      }
    }
    assertThat(catalog.table("lastgang").append(seed, MAR2).tiers()).containsOnly(Tier.HOT);
    assertThat(catalog.archive(MAR4, 8).healthy()).isTrue();
    state = new StoreState(db, catalog, List.of("lastgang"));
  }

  @AfterAll
  static void close() {
    if (catalog != null) {
      catalog.close();
    }
  }

  // ------------------------------------------------------------------ read-only SQL

  @FunctionalInterface
  interface Jdbc {
    void run(Connection c) throws Exception;
  }

  static Arguments path(String name, Jdbc jdbc) {
    return Arguments.of(Named.of(name, jdbc));
  }

  static final String INSERT =
      "INSERT INTO \"lastgang\" (\"malo_id\") VALUES ('" + Workload.malo(9) + "')";
  static final String DELETE = "DELETE FROM \"lastgang\"";

  static Stream<Arguments> mutations() {
    return Stream.of(
        path("execute INSERT", c -> c.createStatement().execute(INSERT)),
        path(
            "executeUpdate UPDATE",
            c -> c.createStatement().executeUpdate("UPDATE \"lastgang\" SET \"value\" = 0")),
        path("executeQuery DELETE", c -> c.createStatement().executeQuery(DELETE)),
        path("executeLargeUpdate DELETE", c -> c.createStatement().executeLargeUpdate(DELETE)),
        path("execute DROP TABLE", c -> c.createStatement().execute("DROP TABLE \"lastgang\"")),
        path("execute CREATE TABLE", c -> c.createStatement().execute("CREATE TABLE x (a int)")),
        path(
            "execute ALTER TABLE",
            c -> c.createStatement().execute("ALTER TABLE \"lastgang\" DROP COLUMN \"value\"")),
        path("execute TRUNCATE", c -> c.createStatement().execute("TRUNCATE \"lastgang\"")),
        path(
            "execute MERGE",
            c ->
                c.createStatement()
                    .execute(
                        "MERGE INTO \"lastgang\" t USING (VALUES (1)) s (a) ON true"
                            + " WHEN MATCHED THEN UPDATE SET \"value\" = 0")),
        path("execute GRANT", c -> c.createStatement().execute("GRANT ALL ON lastgang TO PUBLIC")),
        path("execute SET", c -> c.createStatement().execute("SET search_path = public")),
        path("addBatch of a SELECT", c -> c.createStatement().addBatch("SELECT 1")),
        path("executeBatch", c -> c.createStatement().executeBatch()),
        path("prepareStatement DELETE", c -> c.prepareStatement(DELETE).executeUpdate()),
        path(
            "prepareStatement INSERT executed as a query",
            c -> c.prepareStatement(INSERT).executeQuery()),
        path(
            "prepared SELECT executeUpdate",
            c -> c.prepareStatement("SELECT 1 FROM \"lastgang\"").executeUpdate()),
        path("prepared SELECT addBatch", c -> c.prepareStatement("SELECT 1").addBatch()),
        path("prepareCall", c -> c.prepareCall("{call pg_terminate_backend(1)}").execute()),
        path(
            "a DELETE after a SELECT",
            c -> c.createStatement().execute("SELECT 1; DELETE FROM \"lastgang\"")),
        path(
            "a DROP after a SELECT",
            c -> c.createStatement().executeQuery("SELECT 1; DROP TABLE meterstore.lastgang")),
        path(
            "a DROP behind a block comment",
            c -> c.createStatement().execute("/* SELECT */ DROP TABLE \"lastgang\"")),
        path(
            "a DELETE behind a line comment",
            c -> c.createStatement().execute("-- SELECT\nDELETE FROM \"lastgang\"")),
        path("a DELETE in parentheses", c -> c.createStatement().execute("(DELETE FROM lastgang)")),
        path(
            "EXPLAIN of a DELETE",
            c -> c.createStatement().executeQuery("EXPLAIN PLAN FOR DELETE FROM \"lastgang\"")),
        path(
            "a DELETE inside WITH",
            c ->
                c.createStatement()
                    .execute("WITH d AS (DELETE FROM \"lastgang\" RETURNING *) SELECT * FROM d")),
        // setReadOnly(false) is accepted with a warning (tools call it on connect, issue #19
        // item 7): the writes after it are still refused.
        path(
            "setReadOnly(false), then a DELETE",
            c -> {
              c.setReadOnly(false);
              c.createStatement().executeUpdate(DELETE);
            }),
        path(
            "the statement's connection",
            c -> c.createStatement().getConnection().createStatement().executeUpdate(DELETE)),
        path(
            "the statement's connection made writable",
            c -> {
              Connection writable = c.createStatement().getConnection();
              writable.setReadOnly(false);
              writable.createStatement().execute(INSERT);
            }),
        path(
            "the result set's statement",
            c -> {
              try (ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
                rs.getStatement().executeUpdate(DELETE);
              }
            }),
        path(
            "the metadata's connection",
            c -> c.getMetaData().getConnection().createStatement().executeUpdate(DELETE)),
        path(
            "the unwrapped Calcite connection",
            c ->
                c.unwrap(org.apache.calcite.jdbc.CalciteConnection.class)
                    .createStatement()
                    .executeUpdate(DELETE)),
        path(
            "updating a result set",
            c -> {
              try (ResultSet rs =
                  c.createStatement().executeQuery("SELECT \"malo_id\" FROM \"lastgang\"")) {
                rs.next();
                rs.updateString(1, Workload.malo(9));
                rs.updateRow();
              }
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void everyMutationPathIsRefusedAndChangesNothing(Jdbc mutation) throws Exception {
    StoreState.Snapshot before = state.snapshot();

    Throwable thrown;
    try (Connection c = catalog.connection()) {
      thrown = catchThrowable(() -> mutation.run(c));
      assertThat(c.isReadOnly()).isTrue();
    }

    assertThat(thrown).isInstanceOf(SQLException.class);
    assertThat(state.snapshot()).isEqualTo(before);
  }

  @Test
  void statementsAndTheirConnectionsStayReadOnlyMeterStoreConnections() throws Exception {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement()) {
      assertThat(catchThrowable(() -> c.createStatement().executeUpdate(DELETE)))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(READ_ONLY));
      assertThat(s.getConnection().isReadOnly()).isTrue();
      assertThat(catchThrowable(() -> s.getConnection().createStatement().executeUpdate(DELETE)))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo(READ_ONLY));
    }
  }

  @Test
  void stringLiteralTricksAreOnlyValues() throws Exception {
    StoreState.Snapshot before = state.snapshot();
    String trick = "x'; DROP TABLE meterstore.lastgang; --";
    try (Connection c = catalog.connection()) {
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT count(*) FROM \"lastgang\" WHERE \"malo_id\" = '"
                      + trick.replace("'", "''")
                      + "'")) {
        rs.next();
        assertThat(rs.getLong(1)).isZero();
      }
      try (PreparedStatement p =
          c.prepareStatement("SELECT count(*) FROM \"lastgang\" WHERE \"malo_id\" = ?")) {
        p.setString(1, trick);
        try (ResultSet rs = p.executeQuery()) {
          rs.next();
          assertThat(rs.getLong(1)).isZero();
        }
      }
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT count(*), sum(\"value\") FROM \"lastgang\"")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(4);
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo("10");
      }
    }
    assertThat(state.snapshot()).isEqualTo(before);
  }

  // ------------------------------------------------------------------ secrets

  static Stream<Arguments> leaks() {
    String closed = "127.0.0.1:1";
    return Stream.of(
        leak(
            "hot url with user info, unreachable",
            toml("url = \"jdbc:postgresql://meter:" + SECRET + "@" + closed + "/m\"", "")),
        leak(
            "hot url with ?password=, unreachable",
            toml(
                "url = \"jdbc:postgresql://" + closed + "/m?user=meter&password=" + SECRET + "\"",
                "")),
        leak(
            "hot url of another scheme with user info",
            toml("url = \"jdbc:postgresq://meter:" + SECRET + "@" + closed + "/m\"", "")),
        leak(
            "hot url without jdbc: and a password",
            toml("url = \"postgresql://meter:" + SECRET + "@db/m?password=" + SECRET + "\"", "")),
        leak(
            "cold uri with user info, unreachable",
            toml("", "uri = \"jdbc:postgresql://meter:" + SECRET + "@" + closed + "/m\"")),
        leak(
            "cold uri with ?password=, unreachable",
            toml("", "uri = \"jdbc:postgresql://" + closed + "/m?password=" + SECRET + "\"")),
        leak(
            "hot password from ${ENV}, unreachable url",
            toml("url = \"jdbc:postgresql://" + closed + "/m\"\npassword = \"${PW}\"", "")),
        leak("a secret ${ENV} value in a rule-checked key", toml("detach_mode = \"${PW}\"", "")),
        leak(
            "an S3 secret with a bad endpoint",
            toml(
                "",
                "[cold.s3]\nregion = \"eu\"\nendpoint = \"http://k:"
                    + SECRET
                    + "@minio:9000/a b\"\n"
                    + "access_key_id = \"k\"\nsecret_access_key = \""
                    + SECRET
                    + "\"")),
        leak(
            "the hot password, refused by the server",
            toml("user = \"nobody_" + "x\"\npassword = \"" + SECRET + "\"", "")));
  }

  static Arguments leak(String name, String toml) {
    return Arguments.of(Named.of(name, toml));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("leaks")
  void aFailingOpenShowsNoSecretInItsErrorsOrLogs(String toml) throws Exception {
    Path file = write("leak.toml", toml);
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream err = System.err;
    Throwable thrown;
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try {
      thrown =
          catchThrowable(
              () -> {
                MeterStoreConfig config = MeterStoreConfig.load(file, Map.of("PW", SECRET));
                assertThat(config.toString()).doesNotContain(SECRET);
                assertThat(config.hot().toString()).doesNotContain(SECRET);
                assertThat(config.cold().toString()).doesNotContain(SECRET);
                try (MeterCatalog opened = MeterStores.open(config, OpenTelemetry.noop())) {
                  assertThat(opened.toString()).doesNotContain(SECRET);
                  opened.createTables(MAR2);
                }
              });
    } finally {
      System.setErr(err);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    err.print(logged);
    assertThat(thrown).isInstanceOf(MeterStoreException.class);
    assertThat(Secrets.everyMessage(thrown)).doesNotContain(SECRET);
    assertThat(stackTraces(thrown)).doesNotContain(SECRET);
    assertThat(logged).doesNotContain(SECRET);
  }

  @Test
  void configurationRecordsAndTheCatalogNeverPrintTheirSecrets() throws Exception {
    String toml =
        toml(
                "",
                "[cold.s3]\nregion = \"eu-central-1\"\naccess_key_id = \"k\"\n"
                    + "secret_access_key = \"${PW}\"")
            + "\n[privacy]\n[privacy.erasure_keys]\n\"2026\" = \"${KEY}\"\n";
    String key = "c2VjcmV0LWtleS1vZi10aGlydHktdHdvLWJ5dGVzISE=";
    MeterStoreConfig config =
        MeterStoreConfig.load(write("secrets.toml", toml), Map.of("PW", SECRET, "KEY", key));
    for (Object o :
        List.of(
            config, config.hot(), config.cold(), config.privacy(), catalog, Tiers.hot(catalog))) {
      assertThat(o.toString()).doesNotContain(SECRET).doesNotContain(key);
    }
    assertThat(config.hot().password().reveal()).isEqualTo(db.password());
  }

  // ------------------------------------------------------------------ helpers

  /** The deployment's TOML, with {@code hotLines} replacing keys of {@code [hot]}. */
  static String toml(String hotLines, String coldLines) {
    StringBuilder hot = new StringBuilder();
    Map<String, String> base =
        new java.util.LinkedHashMap<>(
            Map.of(
                "url", "\"" + db.jdbcUrl() + "\"",
                "user", "\"" + db.user() + "\"",
                "password", "\"" + db.password() + "\""));
    List<String> extra = new ArrayList<>();
    for (String line : hotLines.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      String key = line.substring(0, line.indexOf('=')).strip();
      if (base.containsKey(key)) {
        base.put(key, line.substring(line.indexOf('=') + 1).strip());
      } else {
        extra.add(line);
      }
    }
    base.forEach((k, v) -> hot.append(k).append(" = ").append(v).append('\n'));
    extra.forEach(l -> hot.append(l).append('\n'));
    String cold = coldLines;
    String s3 = "";
    int s3At = cold.indexOf("[cold.s3]");
    if (s3At >= 0) {
      s3 = cold.substring(s3At) + "\n";
      cold = cold.substring(0, s3At);
    }
    return "[hot]\n"
        + hot
        + "pool_size = 2\n\n[cold]\nwarehouse = \""
        + dir.resolve("warehouse").toUri()
        + "\"\n"
        + cold
        + "\n"
        + s3
        + "\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n";
  }

  static Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  static String stackTraces(Throwable t) {
    java.io.StringWriter out = new java.io.StringWriter();
    t.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }
}
