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
 * What a BI user does (issue #19 item 7): sqlline in its own JVM whose classpath is the shaded
 * driver jar and sqlline with its dependencies — nothing else of the project — against a store on a
 * real PostgreSQL and Iceberg warehouse. It connects, lists tables and columns, runs a query over
 * both tiers and reads {@code system.tables} with {@code meterstore.system_at=now}, and prints no
 * stack trace.
 */
@ExtendWith(PostgresExtension.class)
class SqllineIT {
  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-03T06:00:00Z");

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
  void sqllineListsQueriesAndReadsTheSystemTablesThroughTheShadedJarAlone() throws Exception {
    Path script = dir.resolve("session.sql");
    Files.writeString(
        script,
        String.join(
            "\n",
            "!tables",
            "!columns lastgang",
            "SELECT COUNT(*) AS readings, SUM(\"value\") AS energy FROM \"lastgang\";",
            "SELECT \"table\", watermark FROM \"system\".tables;",
            "SELECT 'snapshot=' || CAST(snapshot_id AS VARCHAR) AS s FROM \"system\".seam;",
            "!quit",
            ""));
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");

    Process sqlline =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + dir,
                "-cp",
                userClasspath(),
                "sqlline.SqlLine",
                "-d",
                "org.meterstore.jdbc.MeterStoreDriver",
                "-u",
                "jdbc:meterstore:config=" + config + ";meterstore.system_at=now",
                "-n",
                "analyst",
                "-p",
                "unused",
                "--maxWidth=300",
                "-f",
                script.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean ended = sqlline.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      sqlline.destroyForcibly();
    }
    String stdout = Files.readString(out);
    String stderr = Files.readString(err);
    String both = "--- stdout\n" + stdout + "\n--- stderr\n" + stderr;

    assertThat(ended).as("sqlline ended within 60 s\n%s", both).isTrue();
    assertThat(sqlline.exitValue()).as(both).isZero();
    assertThat(stdout)
        .as(both)
        // !tables: both relations of the table and the system relations
        .contains("lastgang ", "lastgang_versions", "| TABLE ", "SYSTEM TABLE", "seam")
        // !columns: names and types
        .contains("malo_id", "obis_code", "VARCHAR", "TIMESTAMP(3)", "DECIMAL(18, 6)")
        // 2 meters x 3 days of quarter-hours, 1.25 and 2.25 each
        .contains("| 576 ", "| 1008.000000 ")
        // system.tables at the driver's now: W after one archived day
        .contains("2026-01-02 00:00:00")
        .containsPattern("snapshot=[0-9]{6,}");
    for (String stream : List.of(stdout, stderr)) {
      assertThat(stream).as(both).doesNotContain("Exception").doesNotContain("\tat ");
    }
  }

  /**
   * The classpath a user gets: the shaded jar and sqlline's jars, as the build copied them; never
   * this JVM's classpath.
   */
  private static String userClasspath() throws Exception {
    List<String> entries = new ArrayList<>();
    Path jar = Path.of(System.getProperty("meterstore.driver.jar"));
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
