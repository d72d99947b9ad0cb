package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded default's PostgreSQL lets in only who has its password: password (SCRAM) rules for
 * loopback and socket connections, the password in an owner-only file, the Unix socket inside the
 * data directory rather than the shared temporary directory, and a cluster made when everyone was
 * trusted secured on its next start with its data kept. The checks go to the server from outside,
 * as another local user would.
 */
@SuppressWarnings("try") // a catalog held open only for its server
class EmbeddedSecurityIT {
  private static Path root;

  @BeforeAll
  static void freshRoot() throws IOException {
    root = Path.of("target", "embedded-security-it").toAbsolutePath();
    if (Files.exists(root)) {
      try (Stream<Path> all = Files.walk(root)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(root);
  }

  @Test
  void onlyThePasswordInTheOwnerOnlyFileLetsAConnectionIn() throws Exception {
    Path config = config("plain");
    Path data = config.resolveSibling("data");
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      int port = port(data);
      String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
      assertRefused(url, null);
      assertRefused(url, "not-the-password");
      Path file = data.resolve("pg-password");
      assertThat(file).exists();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data)))
          .isEqualTo("rwx------");
      try (Connection conn = connect(url, password(data));
          Statement s = conn.createStatement()) {
        assertThat(show(s, "listen_addresses")).isEqualTo("127.0.0.1");
        assertThat(show(s, "unix_socket_directories")).isEqualTo(data.resolve("pg").toString());
        assertThat(show(s, "password_encryption")).isEqualTo("scram-sha-256");
        assertThat(one(s, "SELECT rolpassword FROM pg_authid WHERE rolname = 'postgres'"))
            .startsWith("SCRAM-SHA-256$");
        assertThat(rulesOf(s)).containsOnly("scram-sha-256");
      }
      assertThat(data.resolve("pg/.s.PGSQL." + port)).exists();
      assertThat(Path.of("/tmp/.s.PGSQL." + port)).doesNotExist();
      String password = password(data);
      assertThat(c.embeddedDatabase())
          .hasValueSatisfying(
              e -> {
                assertThat(e.jdbcUrl()).isEqualTo(url).doesNotContain(password);
                assertThat(e.user()).isEqualTo("postgres");
                assertThat(e.passwordFile()).isEqualTo(file);
              });
    }
  }

  @Test
  void aSecondOpenAfterCloseKeepsThePasswordAndThePortAndNarrowsTheFileAgain() throws Exception {
    Path config = config("reopen");
    Path data = config.resolveSibling("data");
    int port;
    String password;
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      port = port(data);
      password = password(data);
    }
    Path file = data.resolve("pg-password");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--")); // a copy
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop());
        Connection conn = connect("jdbc:postgresql://127.0.0.1:" + port + "/postgres", password)) {
      assertThat(port(data)).isEqualTo(port);
      assertThat(password(data)).isEqualTo(password);
      assertThat(conn.isValid(5)).isTrue();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .as("narrowed again")
          .isEqualTo("rw-------");
    }
  }

  @Test
  void aClusterThatTrustedEveryoneIsSecuredOnItsNextStartWithItsDataKept() throws Exception {
    Path config = config("trust");
    Path data = config.resolveSibling("data");
    Files.createDirectories(data);
    // as the embedded default made clusters before it had a password: zonky's own initdb
    try (EmbeddedPostgres old =
            EmbeddedPostgres.builder()
                .setDataDirectory(data.resolve("pg"))
                .setCleanDataDirectory(false)
                .start();
        Connection conn = old.getPostgresDatabase().getConnection();
        Statement s = conn.createStatement()) {
      s.execute("CREATE TABLE kept_from_before (x int)");
      s.execute("INSERT INTO kept_from_before VALUES (42)");
    }
    assertThat(data.resolve("pg-password")).doesNotExist();

    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      String url = "jdbc:postgresql://127.0.0.1:" + port(data) + "/postgres";
      assertRefused(url, null);
      assertRefused(url, "not-the-password");
      try (Connection conn = connect(url, password(data));
          Statement s = conn.createStatement()) {
        assertThat(one(s, "SELECT x::text FROM kept_from_before")).isEqualTo("42");
        assertThat(rulesOf(s)).containsOnly("scram-sha-256");
      }
    }
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop())) {
      assertRefused("jdbc:postgresql://127.0.0.1:" + port(data) + "/postgres", null);
    }
  }

  @Test
  void aDataDirectoryTooDeepForASocketGetsNoneAndStillWorks() throws Exception {
    Path deep = root.resolve("deep").resolve("d".repeat(100));
    Files.createDirectories(deep);
    Path config = writeConfig(deep);
    Path data = deep.resolve("data");
    assertThat(data.resolve("pg/.s.PGSQL.5432").toString().length()).isGreaterThan(107);
    try (MeterCatalog c = MeterStores.open(config, OpenTelemetry.noop());
        Connection conn =
            connect("jdbc:postgresql://127.0.0.1:" + port(data) + "/postgres", password(data));
        Statement s = conn.createStatement()) {
      assertThat(show(s, "unix_socket_directories")).isEmpty();
    }
  }

  private static Path config(String name) throws IOException {
    Path dir = root.resolve(name);
    Files.createDirectories(dir);
    return writeConfig(dir);
  }

  private static Path writeConfig(Path dir) throws IOException {
    Path config = dir.resolve("meterstore.toml");
    Files.writeString(
        config, "data_dir = \"data\"\n\n[[tables]]\nname = \"lastgang\"\n", StandardCharsets.UTF_8);
    return config;
  }

  /** The running server's port, from line 4 of its pid file. */
  private static int port(Path data) throws IOException {
    return Integer.parseInt(Files.readAllLines(data.resolve("pg/postmaster.pid")).get(3).trim());
  }

  private static String password(Path data) throws IOException {
    return Files.readAllLines(data.resolve("pg-password")).get(0).strip();
  }

  private static Connection connect(String url, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    if (password != null) {
      p.setProperty("password", password);
    }
    return DriverManager.getConnection(url, p);
  }

  /**
   * Refused by the server (28P01: wrong password) or, without one, by the driver before it sends
   * anything, because the server asked for one.
   */
  private static void assertRefused(String url, String password) {
    assertThatThrownBy(() -> connect(url, password).close())
        .isInstanceOfSatisfying(
            SQLException.class,
            e ->
                assertThat(e.getSQLState())
                    .as(e.getMessage())
                    .isIn(
                        password == null ? List.of("08004", "28P01", "28000") : List.of("28P01")));
  }

  private static String show(Statement s, String setting) throws SQLException {
    return one(s, "SHOW " + setting);
  }

  private static String one(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  /** The authentication methods of the rules the server has loaded. */
  private static List<String> rulesOf(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT DISTINCT auth_method FROM pg_hba_file_rules")) {
      List<String> out = new java.util.ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }
}
