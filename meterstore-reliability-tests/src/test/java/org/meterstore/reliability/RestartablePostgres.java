package org.meterstore.reliability;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;

/**
 * A PostgreSQL server of the test's own, which it can stop and start again on the same port and
 * data directory: an outage the clients cannot tell from a database restart. The shared test server
 * ({@code PostgresExtension}) must never be stopped, so outage tests use this one. Not thread-safe,
 * except {@link #stop()}, which a hook on another thread may call.
 */
final class RestartablePostgres implements AutoCloseable {
  static final String USER = "postgres";

  private final Path dataDirectory;
  private final int port;
  private EmbeddedPostgres server;

  private RestartablePostgres(Path dataDirectory, int port) {
    this.dataDirectory = dataDirectory;
    this.port = port;
  }

  /** Initialises a cluster in {@code dataDirectory} and starts it on a free port. */
  static RestartablePostgres start(Path dataDirectory) {
    RestartablePostgres pg = new RestartablePostgres(dataDirectory, freePort());
    pg.restart();
    return pg;
  }

  /** The JDBC URL of database {@code postgres}; stays valid across restarts. */
  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /** Stops the server (fast shutdown: sessions are terminated), keeping its data. */
  synchronized void stop() {
    if (server == null) {
      return;
    }
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot stop the test PostgreSQL", e);
    } finally {
      server = null;
    }
  }

  /** Starts the server on the same port and data directory. */
  synchronized void restart() {
    if (server != null) {
      return;
    }
    try {
      server =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPort(port)
              .setServerConfig("listen_addresses", "127.0.0.1")
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the test PostgreSQL on port " + port, e);
    }
  }

  synchronized boolean running() {
    return server != null;
  }

  @Override
  public void close() {
    stop();
  }

  /** A port no server listens on now (shared with {@link ReplicatedPostgres}). */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
