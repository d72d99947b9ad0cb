package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.meterstore.config.Secret;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Secures a cluster whose {@code pg_hba.conf} MeterStore did not write: one initialised before the
 * embedded default had a password, which trusts every local connection. On the running server it
 * sets the superuser's password (hashed here, so the server never sees it in clear), then replaces
 * {@code pg_hba.conf}, reloads it and ends every other session, so that nobody keeps a connection
 * opened under trust. Run again after a crash midway, it sets the same password again.
 */
final class TrustMigration {
  private static final Logger LOG = LoggerFactory.getLogger(TrustMigration.class);

  private TrustMigration() {}

  /**
   * Takes over {@code cluster}'s {@code pg_hba.conf}; {@code wasTrusted} says whether it trusted
   * everyone (an old cluster) or is one that initdb has just made with a password.
   */
  static void run(String jdbcUrl, Secret password, Path cluster, boolean wasTrusted)
      throws SQLException, IOException {
    Properties props = new Properties();
    props.setProperty("user", EmbeddedServer.USER);
    props.setProperty("password", password.reveal());
    try (Connection c = DriverManager.getConnection(jdbcUrl, props)) {
      c.unwrap(PGConnection.class)
          .alterUserPassword(EmbeddedServer.USER, password.reveal().toCharArray(), "scram-sha-256");
      HbaFile.write(cluster);
      try (Statement s = c.createStatement()) {
        reload(s);
        awaitRefusal(jdbcUrl);
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'");
      }
    }
    if (wasTrusted) {
      LOG.warn(
          "Secured the embedded PostgreSQL in {}: it trusted every local connection; it now asks"
              + " for the password kept in the data directory",
          cluster);
    }
  }

  /**
   * Waits until the server refuses a wrong password: the reload is a signal, and the rules hold for
   * the connections accepted after the server acted on it.
   */
  private static void awaitRefusal(String jdbcUrl) throws SQLException {
    Properties wrong = new Properties();
    wrong.setProperty("user", EmbeddedServer.USER);
    wrong.setProperty("password", "not-the-password");
    for (int i = 0; i < 100; i++) {
      try {
        DriverManager.getConnection(jdbcUrl, wrong).close(); // still trusted: not reloaded yet
        Thread.sleep(20);
      } catch (SQLException e) {
        if ("28P01".equals(e.getSQLState())) {
          return;
        }
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for pg_hba.conf to be reloaded", e);
      }
    }
    throw new SQLException("the server still accepts a wrong password after the reload");
  }

  private static void reload(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT pg_reload_conf()")) {
      if (!rs.next() || !rs.getBoolean(1)) {
        throw new SQLException("pg_reload_conf() did not signal the server");
      }
    }
  }
}
