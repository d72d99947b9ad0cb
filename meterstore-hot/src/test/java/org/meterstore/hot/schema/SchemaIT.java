package org.meterstore.hot.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.CheckedKind;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * MeterStore's schema: migrations recorded once, a registry row per table, parents with the CHECK
 * constraints that hold rows written around MeterStore to the canonical forms.
 */
@ExtendWith(PostgresExtension.class)
class SchemaIT {
  private static final String SCHEMA = "metering";
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang")
          .withExtraColumns(
              List.of(
                  ExtraColumn.identity("tenant"),
                  ExtraColumn.coded("channel", Set.of("A", "B")),
                  ExtraColumn.checked("supplier", CheckedKind.BDEW)));

  private static HotStore store;
  private final TestDatabase db;

  SchemaIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE), NOW);
    store.partitions().ensure(TABLE, DAY, DAY.plusSeconds(1));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void recordsEachMigrationOnceAndEachTableOnceWithItsGrid() throws SQLException {
    store.createTables(List.of(TABLE), NOW.plusSeconds(60));
    assertThat(Fixtures.scalar(db, "SELECT count(*) FROM \"metering\".schema_history"))
        .isEqualTo(org.meterstore.hot.internal.schema.Migrations.bundled().size());
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM \"metering\".tables WHERE name = 'lastgang'"
                    + " AND time_model = 'INTERVAL' AND archival_step = interval '1 day'"
                    + " AND created_at = timestamptz '"
                    + NOW
                    + "'"))
        .isEqualTo(1);
  }

  @Test
  void refusesATableRedeclaredWithAnotherArchivalStep() {
    TableDefinition hourly =
        TABLE.withPolicy(TablePolicy.DEFAULTS.withArchivalStep(Duration.ofHours(1)));
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> store.createTables(List.of(hourly), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(e.getMessage()).contains("lastgang", "archival_step PT24H", "archival_step PT1H");
  }

  @Test
  void refusesATableNamedLikeTheRegistry() {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.createTables(List.of(TableDefinition.interval("tables")), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
  }

  @Test
  void refusesAMigrationRecordedFromAnEditedScript() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute("UPDATE \"metering\".schema_history SET checksum = 'edited' WHERE version = 1");
      c.commit();
      try {
        MeterStoreException e =
            catchThrowableOfType(
                MeterStoreException.class, () -> store.createTables(List.of(), NOW));
        assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
        assertThat(e.getMessage()).contains("migration 1", "checksum mismatch");
      } finally {
        c.rollback();
        s.execute(
            "UPDATE \"metering\".schema_history SET checksum = '"
                + checksum()
                + "' WHERE version = 1");
        c.commit();
      }
    }
    store.createTables(List.of(TABLE), NOW);
  }

  private static String checksum() {
    return org.meterstore.hot.internal.schema.Migration.load("V001__create_schema.sql").checksum();
  }

  /** Rows written around MeterStore are held to the canonical forms by the parent's CHECKs. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "malo_id_is_canonical      | malo_id = '51238696782'",
        "malo_id_is_canonical      | malo_id = '5123869678'",
        "melo_id_is_canonical      | melo_id = 'de0001234567890123456789012345678'",
        "obis_code_is_canonical    | obis_code = '1-0:1.8.0*255'",
        "obis_code_is_canonical    | obis_code = '1-0:01.8.0'",
        "obis_code_is_canonical    | obis_code = '1-0:256.8.0'",
        "sparte_is_known           | sparte = 'OEL'",
        "unit_fits_sparte          | unit = 'M3'",
        "quality_is_known          | quality = 'GUESSED'",
        "resolution_is_canonical   | resolution = 'PT900S'",
        "version_scope_is_canonical| version_scope = '9900000000003:2026-13'",
        "to_after_from             | \"to\" = \"from\"",
        "time_model_is_interval    | \"to\" = NULL",
        "channel_is_valid          | channel = 'C'",
        "supplier_is_valid         | supplier = '990000000000'",
        "tenant_is_valid           | tenant = ''",
      })
  void theParentRefusesNonCanonicalRowsWrittenAroundMeterStore(String check, String change)
      throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute(validInsert());
      s.execute("SAVEPOINT valid");
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () -> s.execute("UPDATE \"metering\".\"lastgang\" SET " + change));
      assertThat(e.getSQLState()).isEqualTo("23514");
      assertThat(e.getMessage()).contains(check);
      c.rollback();
    }
  }

  @Test
  void theValidRowOfTheCheckTestIsAccepted() throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute(validInsert());
      assertThat(s.getUpdateCount()).isEqualTo(1);
      c.rollback();
    }
  }

  private static String validInsert() {
    return "INSERT INTO \"metering\".\"lastgang\" (malo_id, melo_id, obis_code, sparte, \"from\","
        + " \"to\", value, unit, quality, resolution, version, version_scope, recorded_at,"
        + " balancing_day, tenant, channel, supplier) VALUES ('51238696781',"
        + " 'DE0001234567890123456789012345678', '1-0:1.8.0', 'STROM', '2026-03-02T10:00Z',"
        + " '2026-03-02T10:15Z', 1.5, 'KWH', 'MEASURED', 'PT15M', 20260303000000,"
        + " '9900000000003:2026-03', now(), '2026-03-02', 't1', 'A', '9900000000003')";
  }
}
