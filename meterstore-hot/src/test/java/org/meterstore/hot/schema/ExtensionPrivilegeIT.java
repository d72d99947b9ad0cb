package org.meterstore.hot.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A role that may not create {@code btree_gist} gets a CONFIG error saying what to ask a DBA for.
 * The role owns a schema a DBA created for it but has no CREATE on the database.
 */
@ExtendWith(PostgresExtension.class)
class ExtensionPrivilegeIT {
  @Test
  void aRoleThatMayNotCreateBtreeGistGetsAConfigErrorNamingTheFix(TestDatabase db)
      throws SQLException {
    String role = "limited_" + ProcessHandle.current().pid();
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'limited'");
      s.execute("REVOKE CREATE ON DATABASE \"" + db.name() + "\" FROM PUBLIC");
      s.execute("CREATE SCHEMA limited AUTHORIZATION " + role);
    }
    HotConfig config =
        HotConfig.of(db.jdbcUrl(), role, "limited")
            .withPoolSize(2)
            .withSettings(HotSettings.DEFAULTS.withSchema("limited"));
    try (HotStore store = HotStore.open(config, OpenTelemetry.noop())) {
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () ->
                  store.createTables(List.of(TableDefinition.interval("lastgang")), Fixtures.NOW));
      assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
      assertThat(e.isRetryable()).isFalse();
      assertThat(e.getMessage())
          .contains("btree_gist", "ask a DBA to run CREATE EXTENSION btree_gist")
          .doesNotContain("limited'");
    } finally {
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA limited CASCADE");
        s.execute("DROP ROLE " + role);
      }
    }
  }

  @Test
  void aStoreOpenedFromConfigOwnsItsPoolAndReportsAnUnreachableDatabaseAsRetryable() {
    HotConfig config = HotConfig.of("jdbc:postgresql://127.0.0.1:1/nothing", "nobody", "secret");
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> HotStore.open(config, OpenTelemetry.noop()));
    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(e.isRetryable()).isTrue();
    assertThat(e.getMessage()).doesNotContain("secret");
  }
}
