package org.meterstore.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * One PostgreSQL server for the whole test JVM, chosen once: an existing server when {@value
 * #URL_VARIABLE} is set, a Testcontainers container when a Docker engine answers, otherwise
 * embedded binaries from Maven. {@value #MODE_VARIABLE} ({@code embedded} or {@code docker}) skips
 * the probe.
 */
final class PostgresServer implements AutoCloseable {
  static final String URL_VARIABLE = "METERSTORE_TEST_POSTGRES_URL";
  static final String USER_VARIABLE = "METERSTORE_TEST_POSTGRES_USER";
  static final String PASSWORD_VARIABLE = "METERSTORE_TEST_POSTGRES_PASSWORD";
  static final String MODE_VARIABLE = "METERSTORE_TEST_POSTGRES";
  static final String IMAGE = "postgres:17-alpine";

  private static final Logger LOG = LoggerFactory.getLogger(PostgresServer.class);

  private final String kind;
  private final String host;
  private final int port;
  private final String user;
  private final String password;
  private final AutoCloseable owned;
  private final AtomicInteger databases = new AtomicInteger();

  private PostgresServer(
      String kind, String host, int port, String user, String password, AutoCloseable owned) {
    this.kind = kind;
    this.host = host;
    this.port = port;
    this.user = user;
    this.password = password;
    this.owned = owned;
  }

  static PostgresServer start() {
    String url = System.getenv(URL_VARIABLE);
    if (url != null && !url.isBlank()) {
      return existing(url.trim());
    }
    String mode = System.getenv().getOrDefault(MODE_VARIABLE, "auto").toLowerCase(Locale.ROOT);
    if (mode.equals("docker") || (mode.equals("auto") && Docker.available())) {
      return docker();
    }
    return embedded();
  }

  private static PostgresServer existing(String url) {
    // jdbc:postgresql://host:port/db — the database part is replaced per test class.
    java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
    String user = System.getenv().getOrDefault(USER_VARIABLE, "postgres");
    String password = System.getenv().getOrDefault(PASSWORD_VARIABLE, "");
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    LOG.info("Using the existing PostgreSQL server at {}:{}", uri.getHost(), port);
    return new PostgresServer("existing", uri.getHost(), port, user, password, () -> {});
  }

  @SuppressWarnings("resource") // closed through this server's close()
  private static PostgresServer docker() {
    PostgreSQLContainer container = new PostgreSQLContainer(IMAGE);
    container.start();
    LOG.info("Started PostgreSQL in Docker ({})", IMAGE);
    return new PostgresServer(
        "docker",
        container.getHost(),
        container.getFirstMappedPort(),
        container.getUsername(),
        container.getPassword(),
        container::stop);
  }

  private static PostgresServer embedded() {
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
      LOG.info("Started embedded PostgreSQL on port {}", pg.getPort());
      return new PostgresServer("embedded", "localhost", pg.getPort(), "postgres", "postgres", pg);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot start embedded PostgreSQL: " + e.getMessage(), e);
    }
  }

  /** Creates a new, empty database whose name starts with a sanitised form of {@code owner}. */
  TestDatabase createDatabase(String owner) {
    String name = databaseName(owner, databases.incrementAndGet());
    try (Connection c = adminConnection();
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE \"" + name + "\"");
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot create test database " + name, e);
    }
    return new TestDatabase(url(name), user, password, name, kind);
  }

  /** Drops a database made by {@link #createDatabase}, ending its remaining sessions. */
  void dropDatabase(TestDatabase db) {
    try (Connection c = adminConnection();
        Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS \"" + db.name() + "\" WITH (FORCE)");
    } catch (SQLException e) {
      LOG.warn("Cannot drop test database {}: {}", db.name(), e.getMessage());
    }
  }

  static String databaseName(String owner, int sequence) {
    String base = owner.replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
    String suffix = "_" + sequence + "_" + ProcessHandle.current().pid();
    int room = 63 - "t_".length() - suffix.length();
    if (base.length() > room) {
      base = base.substring(base.length() - room);
    }
    return "t_" + base + suffix;
  }

  private Connection adminConnection() throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", user);
    props.setProperty("password", password);
    return DriverManager.getConnection(url("postgres"), props);
  }

  private String url(String database) {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  @Override
  public void close() {
    try {
      owned.close();
    } catch (Exception e) {
      LOG.warn("Cannot stop the {} PostgreSQL server: {}", kind, e.getMessage());
    }
  }
}
