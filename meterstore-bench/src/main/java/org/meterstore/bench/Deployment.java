package org.meterstore.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.OpenTelemetry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotStore;

/**
 * One embedded PostgreSQL 17 (zonky binaries, as in the test suite) shared by MeterStore and every
 * PostgreSQL baseline, so both run with the same server settings; MeterStore's hot store on it, its
 * cold store with the JDBC catalog on it and a local-filesystem warehouse, a pool for query
 * connections, a plain connection for the baselines, and the CPU clock of this JVM and that server.
 */
final class Deployment implements AutoCloseable {
  final EmbeddedPostgres pg;
  final String url;
  final Path warehouse;
  final HotStore hot;
  final ColdStore cold;
  final HikariDataSource readers;
  final Connection raw;
  final CpuClock cpu;

  Deployment(Path warehouse) throws IOException, SQLException {
    this.pg = EmbeddedPostgres.builder().start();
    this.url = "jdbc:postgresql://localhost:" + pg.getPort() + "/postgres";
    this.warehouse = warehouse;
    this.hot = HotStore.open(HotConfig.of(url, "postgres", "postgres").withPoolSize(4), noop());
    this.cold =
        ColdStore.open(ColdConfig.jdbc(url, "postgres", "postgres", warehouse.toUri().toString()));
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(url);
    pool.setUsername("postgres");
    pool.setPassword("postgres");
    pool.setMaximumPoolSize(4);
    pool.setPoolName("bench-readers");
    this.readers = new HikariDataSource(pool);
    this.raw = pg.getPostgresDatabase().getConnection();
    this.cpu = CpuClock.of(raw);
  }

  /** A new connection for a baseline; the caller closes it. */
  Connection connect() throws SQLException {
    return pg.getPostgresDatabase().getConnection();
  }

  static OpenTelemetry noop() {
    return OpenTelemetry.noop();
  }

  @Override
  public void close() throws java.io.IOException, SQLException {
    raw.close();
    readers.close();
    cold.close();
    hot.close();
    pg.close();
  }
}
