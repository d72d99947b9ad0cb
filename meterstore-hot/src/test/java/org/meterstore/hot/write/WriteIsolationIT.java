package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.SQLException;
import java.time.Duration;
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
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The writer's locks order concurrent writers only under {@code READ COMMITTED} (under a stricter
 * level the transaction's snapshot predates them): a write on a connection at another level is
 * refused, and a store's own pool runs at read committed whatever the server's default.
 */
@ExtendWith(PostgresExtension.class)
class WriteIsolationIT {
  private static final String SERIALIZABLE = "-c default_transaction_isolation=serializable";
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final String V1 = "20260303000000";

  @Test
  void aWriteOnAConnectionAtAnotherIsolationLevelIsRefusedAndWritesNothing(TestDatabase db)
      throws SQLException {
    PGSimpleDataSource serializable = (PGSimpleDataSource) db.dataSource();
    serializable.setOptions(SERIALIZABLE);
    try (HotStore store = HotStore.open(serializable, HotSettings.DEFAULTS, OpenTelemetry.noop())) {
      store.createTables(List.of(TABLE), NOW);
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class, () -> store.write(TABLE, Fixtures.day(1, DAY, V1), NOW));
      assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
      assertThat(e.getMessage())
          .contains(
              "Cannot write to table lastgang",
              "isolation level serializable",
              "read committed",
              "nothing was written");
    }
    assertThat(Fixtures.scalar(db, "SELECT count(*) FROM meterstore.lastgang")).isZero();
  }

  @Test
  void aStoresOwnPoolWritesAtReadCommittedWhateverTheServerDefault(TestDatabase db)
      throws SQLException {
    String url =
        db.jdbcUrl()
            + (db.jdbcUrl().contains("?") ? "&" : "?")
            + "options=-c%20default_transaction_isolation%3Dserializable";
    HotConfig config =
        HotConfig.of(url, db.user(), db.password())
            .withSettings(
                HotSettings.DEFAULTS.withSchema("owned").withDdlLockTimeout(Duration.ofSeconds(3)));
    try (HotStore store = HotStore.open(config, OpenTelemetry.noop())) {
      store.createTables(List.of(TABLE), NOW);
      assertThat(store.write(TABLE, Fixtures.day(2, DAY, V1), NOW).stored()).isEqualTo(96);
    }
    assertThat(Fixtures.scalar(db, "SELECT count(*) FROM owned.lastgang")).isEqualTo(96);
  }
}
