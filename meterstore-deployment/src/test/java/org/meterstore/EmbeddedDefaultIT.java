package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.workload.Workload;

/**
 * The embedded default: a configuration without {@code [hot] url} starts PostgreSQL from the
 * bundled binaries with its cluster under {@code data_dir/pg} and a warehouse under {@code
 * data_dir/warehouse}; what was written and archived is there again after a restart, and a second
 * process on the same data directory is refused with a retryable error.
 */
class EmbeddedDefaultIT {
  /** Where the binaries are unpacked: the user's cache, or the data directory. */
  private static Path binaries() {
    Path home = Path.of(System.getProperty("user.home"));
    return Files.isWritable(home)
        ? home.resolve(".cache/meterstore/embedded-pg")
        : dataDir.resolve("pg-binaries");
  }

  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-04T06:00:00Z");
  private static Path dataDir;
  private static Path config;

  @BeforeAll
  static void freshDataDirectory() throws IOException {
    Path root = Path.of("target", "embedded-default-it").toAbsolutePath();
    if (Files.exists(root)) {
      try (Stream<Path> all = Files.walk(root)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(root);
    dataDir = root.resolve("data");
    config = root.resolve("meterstore.toml");
    Files.writeString(
        config,
        "data_dir = \"data\"\n\n[[tables]]\nname = \"lastgang\"\nsettlement_lag = \"1d\"\n",
        StandardCharsets.UTF_8);
  }

  /**
   * Zonky remembers, per resolver and for the JVM's life, where it unpacked the binaries: a start
   * with its default resolver first (as a test fixture or another library would) must not make the
   * store run PostgreSQL from the shared temp directory.
   */
  @BeforeAll
  static void zonkyElsewhere() throws IOException {
    try (EmbeddedPostgres other = EmbeddedPostgres.builder().start()) {
      assertThat(other.getPort()).isPositive();
    }
  }

  @Test
  void keepsReadingsAndTheWatermarkAcrossARestartAndRefusesASecondProcess() throws Exception {
    Instant watermark;
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      c.createTables(DAY1);
      c.table("lastgang").append(readings(3, DAY1, DAY1.plus(Duration.ofDays(4))), DAY1);
      MaintenanceOutcome outcome = c.archive(NOW, 8);
      assertThat(outcome.rows()).extracting(TableOutcome::status).containsExactly(Status.ARCHIVED);
      watermark = c.table("lastgang").watermark();
      assertThat(watermark).isEqualTo(Instant.parse("2026-01-03T00:00:00Z"));
      assertThat(count(c)).isEqualTo(3 * 96 * 4);
      // the running server's executable lies in the private directory, although zonky had
      // unpacked its binaries into the shared temp directory in this JVM before (zonkyElsewhere)
      Path pid = dataDir.resolve("pg/postmaster.pid");
      Path exe = Path.of("/proc", Files.readAllLines(pid).get(0).trim(), "exe");
      if (Files.exists(Path.of("/proc/self/exe"))) {
        assertThat(Files.readSymbolicLink(exe).toString()).startsWith(binaries().toString());
      }

      String child = runSecondProcess();
      assertThat(child).startsWith("REFUSED STORAGE true").contains("another MeterStore process");
      assertThatThrownBy(() -> MeterStores.open(config, OpenTelemetry.noop()))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
                assertThat(e.isRetryable()).isTrue();
              })
          .hasMessageContaining(dataDir.toString());
    }

    assertThat(dataDir.resolve("pg/PG_VERSION")).exists();
    // the binaries ran from the user's private cache (0700), not from the shared temp directory
    Path binaries = binaries();
    assertThat(
            java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(binaries)))
        .isEqualTo("rwx------");
    try (var files = Files.walk(binaries, 5)) {
      assertThat(files.filter(f -> f.endsWith("bin/postgres"))).isNotEmpty();
    }
    assertThat(parquetFiles(dataDir.resolve("warehouse"))).isNotEmpty();

    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      assertThat(c.table("lastgang").watermark()).isEqualTo(watermark);
      assertThat(count(c)).isEqualTo(3 * 96 * 4);
      assertThat(Tiers.hot(c).partitions().countRowsBelow(c.require("lastgang"), watermark))
          .isZero();
    }
  }

  private static long count(MeterCatalog c) throws SQLException {
    try (Connection conn = c.connection();
        Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"lastgang\"")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<Path> parquetFiles(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }

  private static String runSecondProcess() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(OpenChild.class.getName());
    command.add(config.toString());
    Process p =
        new ProcessBuilder(command)
            .redirectError(config.resolveSibling("child.err").toFile())
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  /** Quarter-hours of meters 1..{@code meters} in {@code [from, to)}. */
  static List<Reading> readings(int meters, Instant from, Instant to) {
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
