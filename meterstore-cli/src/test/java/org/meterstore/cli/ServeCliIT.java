package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.meterstore.cli.output.ExitCode;

/**
 * {@code meterstore serve} as users start it, in a child JVM on the embedded default: a password
 * hashed with {@code --hash-password}, the server answering Arrow's Flight SQL JDBC driver on
 * loopback with that user, refusing a wrong password and a write, and stopping on SIGTERM with its
 * PostgreSQL.
 */
class ServeCliIT {
  @Test
  void servesTheEmbeddedStoreToAFlightSqlClientAndStopsOnSigterm() throws Exception {
    Path dir = Path.of("target", "serve-cli-it").toAbsolutePath();
    if (Files.exists(dir)) {
      try (Stream<Path> all = Files.walk(dir)) {
        all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    Files.createDirectories(dir);
    Path config = dir.resolve("meterstore.toml");
    Files.writeString(config, "data_dir = \"data\"\n\n[[tables]]\nname = \"strom\"\n");

    Cli.Run hashed =
        new Cli(config)
            .runWithInput("analysis-pw\n", "--format", "json", "serve", "--hash-password");
    assertThat(hashed.code()).as(hashed.toString()).isEqualTo(ExitCode.OK);
    String hash = hashed.json().get("hash").asText();
    assertThat(hash).startsWith("pbkdf2-sha256:600000:").doesNotContain("analysis-pw");

    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    Files.writeString(
        config,
        "data_dir = \"data\"\n\n[[tables]]\nname = \"strom\"\n\n[serve]\nport = "
            + port
            + "\n\n[serve.users]\nanalyst = \""
            + hash
            + "\"\n",
        StandardCharsets.UTF_8);
    try (ChildCli create =
        ChildCli.start(config, "create", "create", "--now", "2026-03-01T00:00:00Z")) {
      assertThat(create.exit(180)).as(create.toString()).isZero();
    }

    try (ChildCli serve = ChildCli.start(config, "serve", "serve")) {
      serve.awaitErr("Ctrl-C stops it", 180);
      String url =
          "jdbc:arrow-flight-sql://127.0.0.1:"
              + port
              + "/?useEncryption=false&user=analyst&password=";
      try (Connection c = DriverManager.getConnection(url + "analysis-pw");
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"strom\"")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isZero();
        assertThatThrownBy(() -> s.executeUpdate("DELETE FROM \"strom\""))
            .isInstanceOf(SQLException.class);
      }
      assertThatThrownBy(() -> DriverManager.getConnection(url + "wrong").close())
          .isInstanceOf(SQLException.class);
      // SIGTERM: the JVM exits 128 + 15 once the stop hook closed the server and the store
      assertThat(serve.stop(120)).as(serve.toString()).isEqualTo(128 + 15);
      assertThat(serve.err()).doesNotContain("analysis-pw").doesNotContain(hash);
    }
    assertThat(dir.resolve("data").resolve("pg").resolve("postmaster.pid"))
        .as("the embedded PostgreSQL stopped with the server")
        .doesNotExist();
  }
}
