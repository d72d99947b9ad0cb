package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * What an analyst does with the jar Apache Arrow publishes: sqlline in its own JVM whose classpath
 * is sqlline with its jars and {@code flight-sql-jdbc-driver} — nothing of MeterStore — against
 * {@code meterstore serve} (TLS, one user) in this JVM. Every value sqlline prints is compared with
 * the in-process connection's answer, to the last decimal.
 *
 * <p>sqlline has no syntax to bind a parameter, so a prepared statement with a parameter cannot be
 * driven from it; the session runs a query with a literal {@code WHERE} instead (Arrow's driver
 * sends every statement as a Flight SQL prepared statement anyway). Binding a parameter over Flight
 * is {@code SqlServerIT.aPreparedStatementBindsItsParameter}.
 */
@ExtendWith(PostgresExtension.class)
class FlightSqllineIT {
  private static final String TABLE = ServedStore.TABLE;
  private static final String PASSWORD = "sqlline-analyst-pw";
  private static final String WRONG = "not-the-password-42";
  private static final String INSERT =
      "INSERT INTO \"" + TABLE + "\" (\"malo_id\") VALUES ('12345678901')";

  @TempDir static Path dir;
  private static TestDatabase database;
  private static ServedStore store;
  private static SqlServer server;
  private static TestCertificate certificate;
  private static String hash;

  @BeforeAll
  static void serve(TestDatabase db) throws Exception {
    database = db;
    store = ServedStore.build(db, dir.resolve("warehouse"));
    certificate = TestCertificate.create(dir);
    hash = PasswordHash.create(PASSWORD.toCharArray(), 10_000);
    server =
        SqlServer.start(
            store.catalog,
            new ServerSettings(
                "127.0.0.1",
                0,
                certificate.certificate(),
                certificate.key(),
                Map.of("analyst", hash),
                Map.of(),
                false,
                Duration.ofMinutes(1)));
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
  }

  @Test
  void sqllineListsTheTablesAndAnswersAsTheInProcessConnection() throws Exception {
    String malo = inProcess("SELECT MIN(\"malo_id\") FROM \"" + TABLE + "\"").get(0).get(0);
    String totals = "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM \"" + TABLE + "\"";
    String oneMeter =
        "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy, MAX(\"value\") AS peak FROM \""
            + TABLE
            + "\" WHERE \"malo_id\" = '"
            + malo
            + "'";

    Sqlline session =
        sqlline("analyst", PASSWORD, "!tables", totals + ";", oneMeter + ";", "!quit");

    assertThat(session.exit).as(session.toString()).isZero();
    // !tables: every relation the in-process connection lists, schema, name and type alike
    List<List<String>> relations = new ArrayList<>();
    try (Connection c = store.catalog.connection();
        ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
      while (rs.next()) {
        relations.add(
            List.of(
                rs.getString("TABLE_SCHEM"),
                rs.getString("TABLE_NAME"),
                rs.getString("TABLE_TYPE")));
      }
    }
    assertThat(relations)
        .contains(List.of("system", "tables", "SYSTEM TABLE"))
        .anyMatch(r -> r.get(1).equals(TABLE) && r.get(2).equals("TABLE"));
    for (List<String> r : relations) {
      assertThat(session.out).as(session.toString()).contains(csv(r));
    }
    // both tiers' totals and one meter's, to the last decimal
    assertThat(session.out)
        .as(session.toString())
        .contains(csv(List.of("readings", "energy")) + "\n" + csv(inProcess(totals).get(0)))
        .contains(
            csv(List.of("readings", "energy", "peak")) + "\n" + csv(inProcess(oneMeter).get(0)));
    assertThat(session.out + session.err).doesNotContain(PASSWORD).doesNotContain(hash);
  }

  @Test
  void aWriteIsRefusedAndTheServerAnswersOnUnchanged() throws Exception {
    String totals = "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM \"" + TABLE + "\"";
    List<String> before = inProcess(totals).get(0);

    Sqlline session = sqlline("analyst", PASSWORD, INSERT + ";", totals + ";", "!quit");

    // sqlline ends non-zero when a statement of its script failed; it ran on (--force)
    assertThat(session.exit).as(session.toString()).isNotZero();
    assertThat(session.err)
        .as(session.toString())
        .contains("Error: ")
        .contains("MeterStore is read-only");
    assertThat(session.out)
        .as(session.toString())
        .contains(csv(List.of("readings", "energy")) + "\n" + csv(before));
    assertThat(inProcess(totals).get(0)).isEqualTo(before);
    assertThat(session.out + session.err).doesNotContain(PASSWORD).doesNotContain(hash);
  }

  @Test
  void aWrongPasswordDoesNotConnectAndPrintsNoSecret() throws Exception {
    Sqlline session = sqlline("analyst", WRONG, "SELECT 1;", "!quit");
    String printed = session.out + session.err;

    assertThat(session.exit).as(session.toString()).isNotZero();
    assertThat(session.err)
        .as(session.toString())
        .contains("UNAUTHENTICATED: user name or password wrong")
        .doesNotContain("Connected to");
    // Arrow's driver logs the refusal with its stack trace: none of it names a secret
    assertThat(printed)
        .as(session.toString())
        .doesNotContain(WRONG)
        .doesNotContain(PASSWORD)
        .doesNotContain(hash)
        .doesNotContain(hash.substring(hash.lastIndexOf(':') + 1))
        .doesNotContain(database.password());
  }

  /**
   * sqlline asks every connection for its default transaction isolation as it connects. The
   * server's {@code SqlInfo} lacked {@code SQL_DEFAULT_TRANSACTION_ISOLATION}, Arrow's driver
   * failed {@code getDefaultTransactionIsolation()} with a {@code NullPointerException}, and
   * sqlline printed {@code java.lang.reflect.UndeclaredThrowableException} on every connect.
   */
  @Test
  void connectingPrintsNoExceptionAndTheIsolationIsTheInProcessOne() throws Exception {
    int expected;
    try (Connection local = store.catalog.connection()) {
      expected = local.getMetaData().getDefaultTransactionIsolation();
    }
    try (Connection served =
        java.sql.DriverManager.getConnection(url() + "&user=analyst&password=" + PASSWORD)) {
      assertThat(served.getMetaData().getDefaultTransactionIsolation()).isEqualTo(expected);
    }

    Sqlline session = sqlline("analyst", PASSWORD, "!quit");
    assertThat(session.exit).as(session.toString()).isZero();
    assertThat(session.out + session.err).as(session.toString()).doesNotContain("Exception");
  }

  /** One row as sqlline's csv output format prints it: each value in single quotes. */
  private static String csv(List<String> row) {
    return String.join(",", row.stream().map(v -> "'" + v + "'").toList());
  }

  /** The rows of {@code sql} on the in-process connection, each value as text. */
  private static List<List<String>> inProcess(String sql) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (Connection c = store.catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static String url() {
    return "jdbc:arrow-flight-sql://127.0.0.1:"
        + server.port()
        + "/?useEncryption=true&tlsRootCerts="
        + certificate.certificate();
  }

  /** sqlline in a child JVM running {@code lines} as a script, signed in as {@code user}. */
  private static Sqlline sqlline(String user, String password, String... lines) throws Exception {
    Path run = Files.createTempDirectory(dir, "sqlline");
    Path script = run.resolve("session.sql");
    Files.writeString(script, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    Path out = run.resolve("stdout.txt");
    Path err = run.resolve("stderr.txt");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Arrow's memory reads direct buffers' addresses
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + run,
                // sqlline keeps its history under the user's home
                "-Duser.home=" + run,
                "-cp",
                userClasspath(),
                "sqlline.SqlLine",
                "-d",
                "org.apache.arrow.driver.jdbc.ArrowFlightJdbcDriver",
                "-u",
                url(),
                "-n",
                user,
                "-p",
                password,
                "--outputformat=csv",
                "--force=true",
                "--maxWidth=300",
                "-f",
                script.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean ended = p.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly().waitFor();
    }
    Sqlline s =
        new Sqlline(
            ended ? p.exitValue() : -1,
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    assertThat(ended).as("sqlline ended within 120 s%s", s).isTrue();
    return s;
  }

  /** sqlline's jars and Arrow's driver jar as the build copied them; never this JVM's classpath. */
  private static String userClasspath() throws Exception {
    List<String> entries = new ArrayList<>();
    try (Stream<Path> lib = Files.list(Path.of(System.getProperty("meterstore.sqlline.lib")))) {
      lib.map(Path::toString).filter(p -> p.endsWith(".jar")).sorted().forEach(entries::add);
    }
    assertThat(entries)
        .anyMatch(p -> p.contains("sqlline-"))
        .anyMatch(p -> p.contains("flight-sql-jdbc-driver-"))
        .noneMatch(p -> Path.of(p).getFileName().toString().contains("meterstore"));
    return String.join(File.pathSeparator, entries);
  }

  /** What one sqlline run printed and returned. */
  private record Sqlline(int exit, String out, String err) {
    @Override
    public String toString() {
      return "\nexit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
    }
  }
}
