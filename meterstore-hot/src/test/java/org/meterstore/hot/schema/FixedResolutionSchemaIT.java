package org.meterstore.hot.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * What a declared resolution changes in the hot tier's catalog: the grid CHECK on the parent, no
 * span exclusion constraint on the partitions of a table whose grid rules overlap out, and a
 * declaration that cannot change once the table exists.
 */
@ExtendWith(PostgresExtension.class)
class FixedResolutionSchemaIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition FREE = TableDefinition.interval("lastgang");
  private static final TableDefinition QUARTER_HOURS =
      TableDefinition.interval("lastgang_fixed").withResolution(Resolution.PT15M);
  private static final TableDefinition DAYS =
      TableDefinition.interval("tageswerte_fixed").withResolution(Resolution.P1D);

  private static HotStore store;
  private final TestDatabase db;

  FixedResolutionSchemaIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(FREE, QUARTER_HOURS, DAYS), NOW);
    for (TableDefinition t : List.of(FREE, QUARTER_HOURS, DAYS)) {
      store.partitions().ensure(t, DAY, DAY.plusSeconds(1));
    }
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void onlyATableWhoseGridRulesOverlapOutHasNoSpanExclusionConstraint() throws SQLException {
    // No new partition carries one_operator_per_reading (the writer's since ADR 0016), so a
    // PT15M partition carries no GiST index at all.
    assertThat(exclusions(FREE)).containsExactly("no_overlap");
    assertThat(exclusions(QUARTER_HOURS)).isEmpty();
    // P1D counts from the gas day's 06:00 or from midnight: a gas and a calendar day of one
    // reading can overlap with different starts, so the constraint stays.
    assertThat(exclusions(DAYS)).containsExactly("no_overlap");
  }

  @Test
  void theParentAndItsPartitionsCarryTheGridCheckOnlyWhenAResolutionIsDeclared()
      throws SQLException {
    assertThat(checks(FREE.name())).isZero();
    assertThat(checks(QUARTER_HOURS.name())).isEqualTo(1);
    assertThat(checks(QUARTER_HOURS.name() + "_2026_03_02_0000")).isEqualTo(1);
    assertThat(checks(DAYS.name())).isEqualTo(1);
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM \"meterstore\".\"tables\" WHERE name = 'lastgang_fixed'"
                    + " AND resolution = 'PT15M'"))
        .isEqualTo(1);
  }

  @Test
  void theCheckRefusesARowWrittenAroundMeterStoreOffTheGrid() throws SQLException {
    store.write(
        QUARTER_HOURS,
        List.of(Fixtures.quarterHour(1, DAY.plus(Duration.ofHours(2)), "1", null).build()),
        NOW);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      SQLException e =
          catchThrowableOfType(
              SQLException.class,
              () ->
                  s.executeUpdate(
                      "INSERT INTO \"meterstore\".\"lastgang_fixed\" SELECT malo_id, melo_id,"
                          + " obis_code, sparte, \"from\" + interval '5 minutes',"
                          + " \"to\" + interval '5 minutes', value, unit, quality, resolution,"
                          + " version, version_scope, recorded_at, balancing_day, source_kind,"
                          + " provenance FROM \"meterstore\".\"lastgang_fixed\""));
      assertThat(e.getSQLState()).isEqualTo("23514");
      assertThat(e.getMessage()).contains(TableDefinition.GRID_RULE);
      assertThatCode(
              () ->
                  s.executeUpdate(
                      "INSERT INTO \"meterstore\".\"lastgang_fixed\" SELECT malo_id, melo_id,"
                          + " obis_code, sparte, \"from\" + interval '15 minutes',"
                          + " \"to\" + interval '15 minutes', value, unit, quality, resolution,"
                          + " version, version_scope, recorded_at, balancing_day, source_kind,"
                          + " provenance FROM \"meterstore\".\"lastgang_fixed\""))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aResolutionTakesEffectAtCreationAndAChangedDeclarationIsRefused() {
    assertThatCode(() -> store.createTables(List.of(FREE, QUARTER_HOURS, DAYS), NOW))
        .doesNotThrowAnyException();
    MeterStoreException declared =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.createTables(List.of(FREE.withResolution(Resolution.PT15M)), NOW));
    assertThat(declared.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(declared.getMessage())
        .isEqualTo(
            "Cannot create table lastgang: schema meterstore already holds it without a fixed"
                + " resolution, but it is declared with resolution PT15M (a resolution takes"
                + " effect when a table is created: declare the recorded one, or create a new"
                + " table and move the readings)");
    MeterStoreException changed =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.createTables(List.of(QUARTER_HOURS.withResolution(Resolution.PT1H)), NOW));
    assertThat(changed.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(changed.getMessage()).contains("with resolution PT15M", "with resolution PT1H");
    MeterStoreException dropped =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.createTables(List.of(QUARTER_HOURS.withResolution(null)), NOW));
    assertThat(dropped.getMessage()).contains("declared without a fixed resolution");
  }

  private List<String> exclusions(TableDefinition table) throws SQLException {
    String partition = table.name() + "_2026_03_02_0000";
    List<String> names = new java.util.ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        java.sql.ResultSet rs =
            s.executeQuery(
                "SELECT substr(conname, "
                    + (partition.length() + 2)
                    + ") FROM pg_constraint WHERE conrelid = '\"meterstore\".\""
                    + partition
                    + "\"'::regclass AND contype = 'x' ORDER BY conname")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  private long checks(String relation) throws SQLException {
    return Fixtures.scalar(
        db,
        "SELECT count(*) FROM pg_constraint WHERE conrelid = '\"meterstore\".\""
            + relation
            + "\"'::regclass AND contype = 'c' AND conname = '"
            + TableDefinition.GRID_RULE
            + "'");
  }
}
