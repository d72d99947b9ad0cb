package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.hourly;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A statement's {@code setQueryTimeout} and {@code cancel()} stop its tier scans between rows (the
 * network server's statement timeout and a client's cancel rely on them). The long statement is a
 * self cross join: Calcite re-reads the inner side — both tiers — once per outer row, which takes
 * about a minute here; before the scans honoured the cancel flag and the timeout, a timeout was
 * ignored and a cancel took effect only when the whole result had been computed.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatementCancelIT {
  private static final TableDefinition DEF = TableDefinition.interval("lastgang");
  private static final String LONG =
      "SELECT COUNT(*) FROM lastgang AS a CROSS JOIN lastgang AS b WHERE a.\"value\" <> b.\"value\"";

  @TempDir static Path warehouse;
  private QueryFixture d;

  @BeforeAll
  void setUp(TestDatabase db) {
    d = new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(DEF));
    d.hot.write(DEF, hourly(20, DAY1, DAY4, "20260105000000"), d.clock.instant());
    d.archive(DEF, DAY1, DAY2, true);
  }

  @AfterAll
  void tearDown() {
    d.close();
  }

  @Test
  void aQueryTimeoutStopsTheScansWithAClearError() throws Exception {
    try (Connection c = d.catalog.connection();
        PreparedStatement ps = c.prepareStatement(LONG)) {
      ps.setQueryTimeout(1);
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () -> {
                try (ResultSet rs = ps.executeQuery()) {
                  rs.next();
                }
              });
      assertThat((Throwable) e).as("the statement answered instead of timing out").isNotNull();
      assertThat((Throwable) e).hasStackTraceContaining("ran longer than its timeout of 1 s");
      // the connection stays usable
      assertThat(Fixtures.scalar(c, "SELECT COUNT(*) FROM lastgang")).isEqualTo("1440");
    }
  }

  @Test
  void cancelFromAnotherThreadStopsTheScans() throws Exception {
    try (Connection c = d.catalog.connection();
        PreparedStatement ps = c.prepareStatement(LONG)) {
      CompletableFuture<Void> canceller =
          CompletableFuture.runAsync(
              () -> {
                try {
                  Thread.sleep(1_000);
                  ps.cancel();
                } catch (InterruptedException | SQLException e) {
                  throw new IllegalStateException(e);
                }
              });
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () -> {
                try (ResultSet rs = ps.executeQuery()) {
                  rs.next();
                }
              });
      canceller.get(10, TimeUnit.SECONDS);
      assertThat((Throwable) e).as("the statement answered instead of stopping").isNotNull();
      assertThat((Throwable) e).hasStackTraceContaining("The statement was cancelled");
      assertThat(Fixtures.scalar(c, "SELECT COUNT(*) FROM lastgang")).isEqualTo("1440");
    }
  }
}
