package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.hourly;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * What BI tools (sqlline, DBeaver) do to a connection (issue #19 item 7): refresh and read the
 * {@code system} relations through a connection property, make the calls they make on connect, and
 * ask {@link DatabaseMetaData} for tables, columns, keys and types.
 */
@ExtendWith(PostgresExtension.class)
class BiToolsIT {
  private static final Instant NOW = Instant.parse("2026-01-05T00:00:00Z");
  private static final String TABLES =
      "SELECT \"table\", watermark, watermark_lag_seconds FROM \"system\".\"tables\"";
  private static final String DELETE = "DELETE FROM \"lastgang\"";

  @TempDir static java.nio.file.Path warehouse;
  private static QueryFixture d;

  @BeforeAll
  static void seed(TestDatabase db) {
    TableDefinition lastgang = TableDefinition.interval("lastgang");
    d = new QueryFixture(db, warehouse, NOW, List.of(lastgang));
    d.hot.partitions().ensureHeadroom(lastgang, DAY1);
    d.hot.write(lastgang, hourly(1, DAY1, DAY3, "20260105000000"), NOW);
    d.archive(lastgang, DAY1, DAY2, false);
  }

  @AfterAll
  static void close() {
    d.close();
  }

  private static Connection connect(String... properties) throws SQLException {
    Properties info = new Properties();
    for (int i = 0; i < properties.length; i += 2) {
      info.setProperty(properties[i], properties[i + 1]);
    }
    return d.catalog.connection(info);
  }

  @Test
  void aConnectionAskingWithSystemAtReadsTheSystemRelationsComputedAtThatInstant()
      throws Exception {
    try (Connection c = connect(QueryProperties.SYSTEM_AT, "2026-01-03T00:00:00Z")) {
      assertThat(Fixtures.query(c, TABLES)).containsExactly("lastgang|2026-01-02T00:00:00Z|86400|");
      assertThat(
              Fixtures.query(
                  c,
                  "SELECT watermark FROM \"system\".snapshots"
                      + " WHERE \"table\" = 'lastgang' AND snapshot_id IS NOT NULL"))
          .contains("2026-01-02T00:00:00Z|");
    }
    try (Connection c = connect(QueryProperties.SYSTEM_AT, "2026-01-04T00:00:00Z")) {
      assertThat(Fixtures.query(c, TABLES))
          .containsExactly("lastgang|2026-01-02T00:00:00Z|172800|");
    }
  }

  @Test
  void anOrdinaryConnectionDoesNotComputeThemAndNamesTheProperty() throws Exception {
    try (Connection asking = connect(QueryProperties.SYSTEM_AT, "2026-01-03T00:00:00Z");
        Connection plain = connect()) {
      assertThat(Fixtures.query(asking, TABLES)).hasSize(1);
      assertThatThrownBy(() -> Fixtures.query(plain, TABLES))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Cannot read system.tables")
          .hasMessageContaining("meterstore.system_at=now")
          .hasMessageContaining("meterstore query")
          .hasMessageNotContaining("refreshSystemTables")
          .hasMessageNotContaining("QueryEngine");
      // An ordinary query on the same connection is unaffected.
      assertThat(Fixtures.scalar(plain, "SELECT COUNT(*) FROM \"lastgang\"")).isEqualTo("48");
    }
  }

  @Test
  void anInvalidSystemAtFailsTheConnectionNamingTheProperty() {
    assertThatThrownBy(() -> connect(QueryProperties.SYSTEM_AT, "yesterday"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("meterstore.system_at")
        .hasMessageContaining("yesterday")
        .hasMessageContaining("ISO-8601");
  }

  /** What sqlline, DBeaver and connection pools call while connecting. */
  @Test
  void theCallsToolsMakeOnConnectDoNotThrowAndTheConnectionStaysReadOnly() throws Exception {
    try (Connection c = connect()) {
      c.setReadOnly(false);
      assertThat(c.isReadOnly()).isTrue();
      SQLWarning warning = c.getWarnings();
      assertThat((Throwable) warning).isNotNull();
      assertThat(warning.getMessage()).contains("read-only");
      assertThat(warning.getStackTrace()).as("a notice, printed without a stack trace").isEmpty();
      c.clearWarnings();
      assertThat((Throwable) c.getWarnings()).isNull();

      c.setAutoCommit(false);
      c.setAutoCommit(true);
      assertThat(c.getAutoCommit()).isTrue();
      c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      c.getTransactionIsolation();
      c.commit();
      c.rollback();
      c.setCatalog("anything");
      c.getCatalog();
      c.setSchema("meterstore");
      assertThat(c.getSchema()).isEqualTo("meterstore");
      c.setClientInfo("ApplicationName", "DBeaver");
      Properties client = new Properties();
      client.setProperty("ClientUser", "analyst");
      c.setClientInfo(client);
      c.getClientInfo();
      c.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT);
      c.getHoldability();
      c.setNetworkTimeout(Executors.newSingleThreadExecutor(), 30_000);
      c.getNetworkTimeout();
      assertThat(c.isValid(5)).isTrue();
      c.getTypeMap();
      c.nativeSQL("SELECT 1");
      assertThat(c.getMetaData().getConnection()).isSameAs(c);

      assertThat(c.isReadOnly()).isTrue();
      Throwable refused = catchThrowable(() -> c.createStatement().executeUpdate(DELETE));
      assertThat(refused)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
      assertThat(Fixtures.scalar(c, "SELECT COUNT(*) FROM \"lastgang\"")).isEqualTo("48");
    }
  }

  @Test
  void metadataNamesTheProductAndSaysReadOnly() throws Exception {
    try (Connection c = connect()) {
      DatabaseMetaData m = c.getMetaData();
      assertThat(m.getDatabaseProductName()).isEqualTo("MeterStore");
      assertThat(m.getDatabaseProductVersion()).matches("\\d+\\.\\d+\\.\\d+.*");
      assertThat(m.getDriverName()).isEqualTo("MeterStore JDBC");
      assertThat(m.isReadOnly()).isTrue();
      assertThat(m.getIdentifierQuoteString()).isEqualTo("\"");
      assertThat(m.supportsTransactions()).isFalse();
      assertThat(m.storesMixedCaseQuotedIdentifiers()).isFalse();
      assertThat(m.supportsMixedCaseQuotedIdentifiers()).isTrue();
      assertThat(m.getConnection()).isSameAs(c);
    }
  }

  @Test
  void metadataListsSchemasTablesAndTableTypes() throws Exception {
    try (Connection c = connect()) {
      DatabaseMetaData m = c.getMetaData();
      assertThat(rows(m.getSchemas(), "TABLE_SCHEM"))
          .containsExactlyInAnyOrder("meterstore", "system");
      assertThat(rows(m.getCatalogs(), "TABLE_CAT")).isEmpty();
      assertThat(rows(m.getTableTypes(), "TABLE_TYPE")).contains("TABLE", "SYSTEM TABLE");
      assertThat(rows(m.getTables(null, "meterstore", "%", null), "TABLE_NAME", "TABLE_TYPE"))
          .containsExactlyInAnyOrder("lastgang|TABLE", "lastgang_versions|TABLE");
      assertThat(rows(m.getTables(null, "system", "%", null), "TABLE_NAME", "TABLE_TYPE"))
          .contains("tables|SYSTEM TABLE", "snapshots|SYSTEM TABLE");
      assertThat(rows(m.getTables(null, null, "lastgang", new String[] {"TABLE"}), "TABLE_SCHEM"))
          .containsExactly("meterstore");
    }
  }

  @Test
  void metadataGivesColumnsWithTheirTypes() throws Exception {
    try (Connection c = connect()) {
      DatabaseMetaData m = c.getMetaData();
      Map<String, Integer> types = new HashMap<>();
      Map<String, String> typeNames = new HashMap<>();
      List<String> order = new ArrayList<>();
      try (ResultSet rs = m.getColumns(null, "meterstore", "lastgang", "%")) {
        while (rs.next()) {
          String name = rs.getString("COLUMN_NAME");
          order.add(name);
          types.put(name, rs.getInt("DATA_TYPE"));
          typeNames.put(name, rs.getString("TYPE_NAME"));
        }
      }
      assertThat(order).startsWith("malo_id", "melo_id", "obis_code", "sparte", "from", "to");
      assertThat(types)
          .containsEntry("malo_id", Types.VARCHAR)
          .containsEntry("from", Types.TIMESTAMP)
          .containsEntry("value", Types.DECIMAL)
          .containsEntry("balancing_day", Types.DATE);
      assertThat(typeNames.get("value")).startsWith("DECIMAL");
      assertThat(rows(m.getColumns(null, "system", "tables", "healthy"), "DATA_TYPE"))
          .containsExactly(String.valueOf(Types.BOOLEAN));
    }
  }

  @Test
  void metadataGivesTheMergeKeyAsPrimaryKey() throws Exception {
    try (Connection c = connect()) {
      DatabaseMetaData m = c.getMetaData();
      assertThat(
              rows(
                  m.getPrimaryKeys(null, "meterstore", "lastgang"),
                  "TABLE_SCHEM",
                  "TABLE_NAME",
                  "COLUMN_NAME",
                  "KEY_SEQ"))
          .containsExactly(
              "meterstore|lastgang|from|3",
              "meterstore|lastgang|malo_id|1",
              "meterstore|lastgang|obis_code|2");
      assertThat(rows(m.getPrimaryKeys(null, null, "lastgang_versions"), "COLUMN_NAME", "KEY_SEQ"))
          .containsExactly("from|3", "malo_id|1", "obis_code|2", "version|4");
      assertThat(rows(m.getPrimaryKeys(null, "system", "tables"), "COLUMN_NAME")).isEmpty();
      assertThat(rows(m.getPrimaryKeys(null, "meterstore", "nothing"), "COLUMN_NAME")).isEmpty();
    }
  }

  @Test
  void metadataListsTheTypesOfTheDialect() throws Exception {
    try (Connection c = connect()) {
      List<String> types = rows(c.getMetaData().getTypeInfo(), "TYPE_NAME", "DATA_TYPE");
      assertThat(types)
          .contains(
              "VARCHAR|" + Types.VARCHAR,
              "DECIMAL|" + Types.DECIMAL,
              "TIMESTAMP|" + Types.TIMESTAMP,
              "DATE|" + Types.DATE,
              "BOOLEAN|" + Types.BOOLEAN,
              "BIGINT|" + Types.BIGINT);
    }
  }

  /** The named columns of every row, joined by {@code |}, in result order; closes {@code rs}. */
  private static List<String> rows(ResultSet rs, String... columns) throws SQLException {
    List<String> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (String column : columns) {
          b.append(b.length() == 0 ? "" : "|").append(rs.getString(column));
        }
        out.add(b.toString());
      }
    }
    return out;
  }
}
