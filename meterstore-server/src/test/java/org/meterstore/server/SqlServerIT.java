package org.meterstore.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * {@code meterstore serve} on loopback with TLS (a certificate made at test time), reached with
 * Apache Arrow's Flight SQL JDBC driver — a client nobody here wrote. Every answer equals the
 * in-process driver's to the last decimal: totals over both tiers, rows with their microsecond
 * timestamps, a prepared statement with a parameter, the table list. A write, a wrong password, an
 * unknown user, a plaintext client and a user reading a table it may not are refused.
 */
@ExtendWith(PostgresExtension.class)
class SqlServerIT {
  private static final String TABLE = ServedStore.TABLE;
  private static final String PASSWORD = "s3cret-for-tests";

  @TempDir static Path dir;
  private static ServedStore store;
  private static MeterCatalog catalog;
  private static SqlServer server;
  private static TestCertificate certificate;

  @BeforeAll
  static void serve(TestDatabase db) throws Exception {
    store = ServedStore.build(db, dir.resolve("warehouse"));
    catalog = store.catalog;
    assertThat(catalog.table(TABLE).watermark()).isAfter(Instant.parse("2026-03-02T00:00:00Z"));
    certificate = TestCertificate.create(dir);
    String analyst = PasswordHash.create(PASSWORD.toCharArray(), 10_000);
    String grafana = PasswordHash.create("panel".toCharArray(), 10_000);
    ServerSettings settings =
        new ServerSettings(
            "127.0.0.1",
            0,
            certificate.certificate(),
            certificate.key(),
            Map.of("analyst", analyst, "grafana", grafana),
            Map.of("grafana", Set.of()),
            false,
            Duration.ofMinutes(1));
    server = SqlServer.start(catalog, settings);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (store != null) {
      store.close();
    }
  }

  private static String url(String user, String password) {
    return "jdbc:arrow-flight-sql://127.0.0.1:"
        + server.port()
        + "/?useEncryption=true&tlsRootCerts="
        + certificate.certificate()
        + "&user="
        + user
        + "&password="
        + password;
  }

  private static Connection flight() throws SQLException {
    return DriverManager.getConnection(url("analyst", PASSWORD));
  }

  @Test
  void totalsOverBothTiersEqualTheInProcessDriversToTheLastDecimal() throws Exception {
    String sql =
        "SELECT COUNT(*) AS n, SUM(\"value\") AS total, MIN(\"from\") AS first_from,"
            + " MAX(\"from\") AS last_from FROM \""
            + TABLE
            + "\"";
    try (Connection served = flight();
        Connection local = catalog.connection()) {
      List<String> remote = rows(served, sql);
      assertThat(remote).isEqualTo(rows(local, sql));
      // the answer spans both tiers: readings below W (cold) and from W up (hot)
      String[] cells = remote.get(0).split("\\|");
      Instant w = catalog.table(TABLE).watermark();
      assertThat(Instant.parse(cells[2])).isBefore(w);
      assertThat(Instant.parse(cells[3])).isAfterOrEqualTo(w);
      assertThat(Long.parseLong(cells[0])).isPositive();
    }
  }

  @Test
  void rowsKeepTheirMicrosecondTimestampsAndExactDecimals() throws Exception {
    String sql =
        "SELECT \"malo_id\", \"from\", \"recorded_at\", \"value\", \"version\", \"balancing_day\""
            + " FROM \""
            + TABLE
            + "\" ORDER BY \"malo_id\", \"from\", \"obis_code\" LIMIT 500";
    try (Connection served = flight();
        Connection local = catalog.connection()) {
      List<String> remote = rows(served, sql);
      assertThat(remote).hasSize(500).isEqualTo(rows(local, sql));
    }
  }

  @Test
  void aResultOfManyBatchesArrivesWhole() throws Exception {
    // 1,920 readings three times over: two record batches of 4,096 rows and a part
    String sql =
        "SELECT r.\"malo_id\", r.\"from\", r.\"value\", t.x FROM \""
            + TABLE
            + "\" AS r CROSS JOIN (VALUES (1), (2), (3), (4), (5)) AS t(x)"
            + " ORDER BY r.\"malo_id\", r.\"from\", r.\"obis_code\", t.x";
    try (Connection served = flight();
        Connection local = catalog.connection()) {
      List<String> remote = rows(served, sql);
      assertThat(remote).hasSizeGreaterThan(2 * ArrowResults.BATCH_ROWS);
      assertThat(remote).isEqualTo(rows(local, sql));
    }
  }

  @Test
  void aPreparedStatementBindsItsParameter() throws Exception {
    String sql = "SELECT COUNT(*), SUM(\"value\") FROM \"" + TABLE + "\" WHERE \"malo_id\" = ?";
    String malo;
    try (Connection local = catalog.connection();
        Statement s = local.createStatement();
        ResultSet rs = s.executeQuery("SELECT MIN(\"malo_id\") FROM \"" + TABLE + "\"")) {
      rs.next();
      malo = rs.getString(1);
    }
    try (Connection served = flight();
        PreparedStatement ps = served.prepareStatement(sql);
        Connection local = catalog.connection();
        PreparedStatement lp = local.prepareStatement(sql)) {
      ps.setString(1, malo);
      lp.setString(1, malo);
      try (ResultSet remote = ps.executeQuery();
          ResultSet expected = lp.executeQuery()) {
        assertThat(render(remote)).isEqualTo(render(expected)).isNotEmpty();
      }
    }
  }

  @Test
  void theTableListNamesTheTableAndTheSystemRelations() throws Exception {
    List<String> tables = new ArrayList<>();
    try (Connection served = flight();
        ResultSet rs = served.getMetaData().getTables(null, null, "%", null)) {
      while (rs.next()) {
        tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
      }
    }
    assertThat(tables).contains(tablesSchema() + "." + TABLE, "system.tables");
  }

  private static String tablesSchema() throws SQLException {
    try (Connection local = catalog.connection();
        ResultSet rs = local.getMetaData().getTables(null, null, TABLE, null)) {
      rs.next();
      return rs.getString("TABLE_SCHEM");
    }
  }

  @Test
  void connectionPropertiesReachTheStoreAsSessionOptions() throws Exception {
    // Arrow's driver sends the URL properties it does not know as headers of every call
    try (Connection served =
            DriverManager.getConnection(
                url("analyst", PASSWORD) + "&meterstore.system_at=2026-03-10T12:00:00Z");
        Statement s = served.createStatement();
        ResultSet rs = s.executeQuery("SELECT \"table\", \"healthy\" FROM \"system\".\"tables\"")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo(TABLE);
    }
    try (Connection served =
            DriverManager.getConnection(url("analyst", PASSWORD) + "&meterstore.bogus=1");
        Statement s = served.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT 1"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(messages(e)).contains("meterstore.bogus"));
    } catch (SQLException refusedAtConnect) {
      assertThat(messages(refusedAtConnect)).contains("meterstore.bogus");
    }
  }

  @Test
  void aWriteIsRefusedAndChangesNothing() throws Exception {
    String count = "SELECT COUNT(*) FROM \"" + TABLE + "\"";
    List<String> before;
    try (Connection local = catalog.connection()) {
      before = rows(local, count);
    }
    try (Connection served = flight();
        Statement s = served.createStatement()) {
      assertThatThrownBy(
              () ->
                  s.executeUpdate(
                      "INSERT INTO \"" + TABLE + "\" (\"malo_id\") VALUES ('12345678901')"))
          .isInstanceOf(SQLException.class);
    }
    try (Connection local = catalog.connection()) {
      assertThat(rows(local, count)).isEqualTo(before);
    }
  }

  @Test
  void aWrongPasswordAndAnUnknownUserGetTheSameRefusal() {
    Throwable wrong =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> DriverManager.getConnection(url("analyst", "nope")).close());
    Throwable unknown =
        org.assertj.core.api.Assertions.catchThrowable(
            () -> DriverManager.getConnection(url("mallory", "nope")).close());
    assertThat(wrong).isInstanceOf(SQLException.class);
    assertThat(unknown).isInstanceOf(SQLException.class);
    assertThat(messages(wrong)).contains("user name or password wrong").doesNotContain("mallory");
    assertThat(messages(unknown)).contains("user name or password wrong").doesNotContain("mallory");
  }

  @Test
  void aPlaintextClientCannotTalkToTheTlsServer() {
    String plaintext =
        "jdbc:arrow-flight-sql://127.0.0.1:"
            + server.port()
            + "/?useEncryption=false&user=analyst&password="
            + PASSWORD;
    assertThatThrownBy(() -> DriverManager.getConnection(plaintext).close())
        .isInstanceOf(SQLException.class);
  }

  @Test
  void aUserReadsOnlyTheTablesItMay() throws Exception {
    try (Connection panel = DriverManager.getConnection(url("grafana", "panel"));
        Statement s = panel.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery("SELECT COUNT(*) FROM \"" + TABLE + "\""))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(messages(e)).contains("may not read table " + TABLE));
      try (ResultSet rs = s.executeQuery("SELECT 1 + 1 AS two")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
    }
  }

  /**
   * EXPLAIN over Flight: the plan text a served connection gets is the in-process connection's, and
   * it names MeterStore's tier scans (the seam split into a hot and a cold scan).
   */
  @Test
  void explainReturnsTheInProcessPlanWithTheTierScans() throws Exception {
    String sql =
        "EXPLAIN PLAN FOR SELECT \"malo_id\", \"from\", \"value\" FROM \""
            + TABLE
            + "\" WHERE \"value\" > 0";
    try (Connection served = flight();
        Connection local = catalog.connection()) {
      List<String> remote = rows(served, sql);
      List<String> expected = rows(local, sql);
      assertThat(String.join("\n", expected)).contains("MeterHotScan", "MeterColdScan");
      assertThat(remote).isEqualTo(expected);
    }
  }

  /**
   * {@code system} relations served equal the in-process ones, row for row, at the same {@code
   * meterstore.system_at}: {@code system.snapshots} whole, {@code system.tables} without {@code
   * state_pins} (a pin held by another statement running at the same moment would change it).
   */
  @Test
  void systemRelationsServedEqualTheInProcessOnes() throws Exception {
    String at = "2026-03-10T12:00:00Z";
    java.util.Properties props = new java.util.Properties();
    props.setProperty("meterstore.system_at", at);
    String snapshots = "SELECT * FROM \"system\".\"snapshots\" ORDER BY \"table\", \"snapshot_id\"";
    String tables =
        "SELECT \"table\", \"watermark\", \"watermark_lag_seconds\", \"hot_partitions\","
            + " \"partitions_ahead\", \"invariant_violations\", \"healthy\","
            + " \"committed_watermark\" FROM \"system\".\"tables\" ORDER BY \"table\"";
    try (Connection served =
            DriverManager.getConnection(url("analyst", PASSWORD) + "&meterstore.system_at=" + at);
        Connection local = catalog.connection(props)) {
      List<String> remoteSnapshots = rows(served, snapshots);
      assertThat(remoteSnapshots).isNotEmpty().isEqualTo(rows(local, snapshots));
      List<String> remoteTables = rows(served, tables);
      assertThat(remoteTables).hasSize(1).isEqualTo(rows(local, tables));
      assertThat(remoteTables.get(0)).startsWith(TABLE + "|");
    }
  }

  /**
   * What a BI tool reads of {@code DatabaseMetaData} on connecting: no call fails (Arrow's driver
   * fails a call whose SqlInfo the server leaves out), and what describes the SQL surface equals
   * the in-process connection's.
   */
  @Test
  void databaseMetadataAnswersEveryCallAsInProcess() throws Exception {
    try (Connection served = flight();
        Connection local = catalog.connection()) {
      java.sql.DatabaseMetaData remote = served.getMetaData();
      java.sql.DatabaseMetaData expected = local.getMetaData();
      List<String> failed = new ArrayList<>();
      for (java.lang.reflect.Method m : java.sql.DatabaseMetaData.class.getMethods()) {
        Class<?> type = m.getReturnType();
        boolean scalar = type == boolean.class || type == int.class || type == String.class;
        if (m.getParameterCount() != 0 || !scalar) {
          continue;
        }
        try {
          m.invoke(remote);
        } catch (java.lang.reflect.InvocationTargetException e) {
          if (!(e.getCause() instanceof java.sql.SQLFeatureNotSupportedException)) {
            failed.add(m.getName() + ": " + e.getCause());
          }
        }
      }
      assertThat(failed).as("metadata calls that fail over Flight").isEmpty();
      assertThat(remote.getDefaultTransactionIsolation())
          .isEqualTo(expected.getDefaultTransactionIsolation());
      assertThat(remote.getIdentifierQuoteString()).isEqualTo(expected.getIdentifierQuoteString());
      // Arrow's driver joins the lists with ", ", Calcite's with ","
      assertThat(words(remote.getSQLKeywords())).isEqualTo(words(expected.getSQLKeywords()));
      assertThat(words(remote.getNumericFunctions()))
          .isEqualTo(words(expected.getNumericFunctions()));
      assertThat(words(remote.getStringFunctions()))
          .isEqualTo(words(expected.getStringFunctions()));
      assertThat(words(remote.getTimeDateFunctions()))
          .isEqualTo(words(expected.getTimeDateFunctions()));
      assertThat(words(remote.getSQLKeywords())).contains("QUALIFY");
      assertThat(remote.nullPlusNonNullIsNull()).isEqualTo(expected.nullPlusNonNullIsNull());
      assertThat(remote.supportsColumnAliasing()).isEqualTo(expected.supportsColumnAliasing());
      assertThat(remote.getMaxColumnNameLength()).isEqualTo(expected.getMaxColumnNameLength());
      assertThat(remote.isReadOnly()).isTrue();
      assertThat(remote.getDatabaseProductName()).isEqualTo("MeterStore");
    }
  }

  /**
   * A prepared statement's timestamp parameters bind as timestamps (the parameter schema carries
   * their type), as a back-end or Grafana binds a time range: the answer equals the in-process one,
   * and a range that starts below W and ends above it reads both tiers.
   */
  @Test
  void timestampParametersBindAsInstants() throws Exception {
    String sql =
        "SELECT COUNT(*), SUM(\"value\"), MIN(\"from\") FROM \""
            + TABLE
            + "\" WHERE \"from\" >= ? AND \"from\" < ? AND \"malo_id\" <> ?";
    Instant w = catalog.table(TABLE).watermark();
    Instant from = w.minus(Duration.ofDays(2));
    Instant to = w.plus(Duration.ofDays(1));
    List<String> expected;
    try (Connection local = catalog.connection();
        PreparedStatement lp = local.prepareStatement(sql)) {
      lp.setTimestamp(1, java.sql.Timestamp.from(from));
      lp.setTimestamp(2, java.sql.Timestamp.from(to));
      lp.setString(3, "none");
      try (ResultSet rs = lp.executeQuery()) {
        expected = render(rs);
      }
    }
    try (Connection served = flight();
        PreparedStatement ps = served.prepareStatement(sql)) {
      // a timestamp in UTC, as results carry them
      assertThat(ps.getParameterMetaData().getParameterType(1))
          .isIn(java.sql.Types.TIMESTAMP, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
      ps.setTimestamp(1, java.sql.Timestamp.from(from));
      ps.setTimestamp(2, java.sql.Timestamp.from(to));
      ps.setString(3, "none");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(render(rs)).isEqualTo(expected);
      }
    }
    String[] cells = expected.get(0).split("\\|");
    assertThat(Long.parseLong(cells[0])).isPositive();
    assertThat(Instant.parse(cells[2])).isEqualTo(from);
  }

  private static List<String> words(String commaSeparated) {
    return java.util.Arrays.stream(commaSeparated.split(",")).map(String::strip).toList();
  }

  private static String messages(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      b.append(c.getMessage()).append(" | ");
    }
    return b.toString();
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return render(rs);
    }
  }

  /** Each row as text: timestamps as UTC instants, decimals without trailing zeros. */
  private static List<String> render(ResultSet rs) throws SQLException {
    Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    List<String> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= n; i++) {
        int type = rs.getMetaData().getColumnType(i);
        String text;
        if (type == java.sql.Types.TIMESTAMP || type == java.sql.Types.TIMESTAMP_WITH_TIMEZONE) {
          // getTimestamp, not getObject(index): the latter fails in Arrow's Flight SQL JDBC
          // driver 18.3.0 for timestamp columns (apache/arrow-java#839)
          java.sql.Timestamp t = rs.getTimestamp(i, utc);
          text = t == null ? "null" : t.toInstant().toString();
        } else if (type == java.sql.Types.DATE) {
          java.sql.Date d = rs.getDate(i, utc);
          text = d == null ? "null" : d.toLocalDate().toString();
        } else {
          Object v = rs.getObject(i);
          if (v == null) {
            text = "null";
          } else if (v instanceof BigDecimal d) {
            text = d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
          } else if (v instanceof Number num) {
            text = new BigDecimal(num.toString()).stripTrailingZeros().toPlainString();
          } else {
            text = v.toString();
          }
        }
        row.append(text).append('|');
      }
      out.add(row.toString());
    }
    return out;
  }
}
