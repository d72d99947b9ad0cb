package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A real Trino server (the {@code trino-server} tarball on a JDK 24+, see {@link LocalTrino}) reads
 * both tiers of one deployment — the Iceberg connector on MeterStore's JDBC catalog, the PostgreSQL
 * connector on the hot tier — and reproduces MeterStore's answers with the SQL MeterStore
 * publishes, unchanged: {@code "system".seam}'s {@code trino_sql} for the whole table, {@code
 * "system".resolution}'s {@code resolution_sql} for the cold part, and the snapshot S with its
 * watermark W in Trino's own {@code $snapshots} table. Runs only with {@code -Pinterop}.
 */
@ExtendWith(PostgresExtension.class)
class TrinoInteropIT {
  @TempDir static Path warehouse;
  @TempDir static Path trinoBase;

  private static InteropStore store;
  private static InteropStore.Seam seam;
  private static LocalTrino trino;
  private static Connection client;

  @BeforeAll
  static void start(TestDatabase db) throws Exception {
    // Trino starts while the deployment is built: its catalogs connect only when queried
    trino = LocalTrino.launch(db, warehouse, trinoBase);
    long t0 = System.nanoTime();
    store = InteropStore.build(db, warehouse);
    seam = store.seam();
    System.out.printf(
        "InteropStore built in %d ms: S=%d, W=%s%n",
        (System.nanoTime() - t0) / 1_000_000, seam.snapshotId(), seam.watermark());
    trino.awaitActive();
    System.out.printf(
        "Trino active %d ms after launch (it logs: startup completed in %s; resident %s KiB);"
            + " files in %s%n",
        trino.startup().toMillis(),
        trino.loggedStartup().orElse("?"),
        trino.residentKib().map(String::valueOf).orElse("?"),
        trino.base());
    client = trino.connect();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      try {
        if (trino != null) {
          System.out.printf(
              "Trino resident before stop: %s KiB%n",
              trino.residentKib().map(String::valueOf).orElse("?"));
          trino.close();
        }
      } finally {
        if (store != null) {
          store.close();
        }
      }
    }
  }

  @Test
  void thePublishedFederatedQueryReturnsMeterStoresCurrentRows() throws Exception {
    assertThat(seam.trinoSql()).contains("FOR VERSION AS OF " + seam.snapshotId());
    List<String> rows = trinoRows(seam.trinoSql());
    List<String> expected = store.currentRows();
    assertThat(expected).hasSizeGreaterThan(1000);
    // both branches of the union contribute: readings below W (cold at S) and from W on (hot)
    String w = seam.watermark().toString();
    assertThat(expected).anyMatch(l -> l.split("\\|")[2].compareTo(w) < 0);
    assertThat(expected).anyMatch(l -> l.split("\\|")[2].compareTo(w) >= 0);
    System.out.printf(
        "trino_sql: %d rows, %d below W%n",
        rows.size(), rows.stream().filter(l -> l.split("\\|")[2].compareTo(w) < 0).count());
    assertThat(rows).hasSameSizeAs(expected);
    assertThat(rows).containsExactlyElementsOf(expected);
  }

  @Test
  void totalsAndDailySumsOverBothTiersMatchMeterStore() throws Exception {
    String federated = "(" + seam.trinoSql() + ") q";
    assertThat(trinoTotals(federated)).isEqualTo(store.totals("\"" + InteropStore.TABLE + "\""));
    Map<LocalDate, String> daily =
        trinoDaily(
            "SELECT \"balancing_day\", SUM(\"value\") FROM "
                + federated
                + " GROUP BY \"balancing_day\"");
    assertThat(daily).isEqualTo(store.dailyTotals("TRUE"));
    assertThat(daily).containsKeys(LocalDate.parse(InteropStore.FIRST_DAY));
  }

  @Test
  void thePublishedResolutionOverTheIcebergTableGivesTheColdTotals() throws Exception {
    String resolution = store.resolutionSetting("resolution_sql");
    String coldBelowW =
        "(" + resolution + ") q WHERE \"from\" < " + trinoTimestamp(seam.watermark());
    List<String> expected =
        store.totals(
            "\"" + InteropStore.TABLE + "\" WHERE " + InteropStore.fromBefore(seam.watermark()));
    assertThat(Long.parseLong(expected.get(0))).isPositive();
    assertThat(trinoTotals(coldBelowW)).isEqualTo(expected);
  }

  @Test
  void trinosSnapshotsTableShowsSnapshotSWithItsWatermark() throws Exception {
    String sql =
        "SELECT snapshot_id, summary['meterstore.watermark'] FROM"
            + " \"meterstore\".\"meterstore\".\""
            + InteropStore.TABLE
            + "$snapshots\" WHERE snapshot_id = "
            + seam.snapshotId();
    try (Statement s = client.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).as("snapshot " + seam.snapshotId() + " in $snapshots").isTrue();
      assertThat(rs.getLong(1)).isEqualTo(seam.snapshotId());
      assertThat(Instant.parse(rs.getString(2))).isEqualTo(seam.watermark());
    }
  }

  @Test
  void theServerHasExactlyTheTwoCatalogsOfTheDocumentedFiles() throws Exception {
    for (Map.Entry<String, String> f :
        LocalTrino.catalogs(store.db(), store.warehouse()).entrySet()) {
      assertThat(trino.base().resolve("etc/catalog").resolve(f.getKey())).hasContent(f.getValue());
    }
    List<String> catalogs = new ArrayList<>();
    try (Statement s = client.createStatement();
        ResultSet rs = s.executeQuery("SHOW CATALOGS")) {
      while (rs.next()) {
        catalogs.add(rs.getString(1));
      }
    }
    assertThat(catalogs).containsExactlyInAnyOrder("hot", "meterstore", "system");
    assertThat(Files.readString(trino.log())).contains("SERVER STARTED");
  }

  @Test
  void bothCatalogsGiveTheTableTheSameTrinoTypes() throws Exception {
    Map<String, String> cold = columnTypes("meterstore", "meterstore");
    Map<String, String> hot = columnTypes("hot", TwoTiers.SCHEMA);
    System.out.println("Trino types, Iceberg: " + cold + "\nTrino types, PostgreSQL: " + hot);
    for (var c : store.table().columns()) {
      assertThat(hot).as("hot " + c.name()).containsEntry(c.name(), cold.get(c.name()));
    }
    assertThat(cold).containsEntry("from", "timestamp(6) with time zone");
  }

  @Test
  void theIcebergCatalogIsReadOnly() {
    assertThatThrownBy(
            () -> {
              try (Statement s = client.createStatement()) {
                s.executeUpdate(
                    "DELETE FROM \"meterstore\".\"meterstore\".\""
                        + InteropStore.TABLE
                        + "\" WHERE \"value\" < 0");
              }
            })
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Access Denied");
  }

  private static Map<String, String> columnTypes(String catalog, String schema)
      throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Statement s = client.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT column_name, data_type FROM \""
                    + catalog
                    + "\".information_schema.columns WHERE table_schema = '"
                    + schema
                    + "' AND table_name = '"
                    + InteropStore.TABLE
                    + "'")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    assertThat(out).as(catalog + "." + schema + "." + InteropStore.TABLE).isNotEmpty();
    return out;
  }

  private static final DateTimeFormatter TRINO_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS 'UTC'").withZone(ZoneOffset.UTC);

  private static String trinoTimestamp(Instant instant) {
    return "TIMESTAMP '" + TRINO_TS.format(instant) + "'";
  }

  private static List<String> trinoRows(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = client.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(
            InteropStore.line(
                rs.getString("malo_id"),
                rs.getString("obis_code"),
                rs.getTimestamp("from").toInstant(),
                rs.getString("version_scope"),
                rs.getBigDecimal("version"),
                rs.getBigDecimal("value"),
                rs.getString("quality"),
                LocalDate.parse(rs.getString("balancing_day"))));
      }
    }
    out.sort(null);
    return out;
  }

  private static List<String> trinoTotals(String relation) throws SQLException {
    try (Statement s = client.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM " + relation)) {
      rs.next();
      BigDecimal sum = rs.getBigDecimal(2);
      return List.of(Long.toString(rs.getLong(1)), InteropStore.plain(sum));
    }
  }

  private static Map<LocalDate, String> trinoDaily(String sql) throws SQLException {
    Map<LocalDate, String> out = new TreeMap<>();
    try (Statement s = client.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.put(LocalDate.parse(rs.getString(1)), InteropStore.plain(rs.getBigDecimal(2)));
      }
    }
    return out;
  }
}
