package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.Tiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * DuckDB (in-process, its bundled native library, no extension) reads the Parquet files of the
 * table's pinned snapshot S, listed from Iceberg's metadata, and reproduces MeterStore's answers
 * for the cold part ({@code from < W}) with the published {@code resolution_sql} — and shows the
 * two traps docs/interop.md warns about: a naive sum counts every correction again, and grouping
 * gas by the UTC date (or any date of {@code from}) books it on the wrong days.
 */
@ExtendWith(PostgresExtension.class)
class DuckDbInteropIT {
  private static final String CURRENT = "\"" + InteropStore.TABLE + "\"";
  private static final String VERSIONS = "\"" + InteropStore.TABLE + "_versions\"";

  @TempDir static Path warehouse;

  private static InteropStore store;
  private static InteropStore.Seam seam;
  private static List<String> files;
  private static Connection duck;

  @BeforeAll
  static void build(TestDatabase db) throws Exception {
    store = InteropStore.build(db, warehouse);
    seam = store.seam();
    files =
        ColdFiles.of(
            Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable(), seam.snapshotId());
    duck = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duck.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
    }
  }

  @AfterAll
  static void close() throws SQLException {
    if (duck != null) {
      duck.close();
    }
    if (store != null) {
      store.close();
    }
  }

  private static String readParquet() {
    return ColdFiles.readParquet(files);
  }

  private static String coldBelowW() {
    return "\"from\" < TIMESTAMPTZ '" + seam.watermark() + "'";
  }

  /** MeterStore's relation {@code relation} restricted to the cold part, below W. */
  private static String meterStoreCold(String relation) {
    return relation + " WHERE " + InteropStore.fromBefore(seam.watermark());
  }

  /** The published {@code resolution_sql} with S's files in place of the Iceberg table. */
  private static String resolved() throws SQLException {
    return ColdFiles.resolvedOver(
        store.resolutionSetting("resolution_sql"), InteropStore.TABLE, readParquet());
  }

  @Test
  void rowCountsOfTheSnapshotsFilesMatchMeterStoresVersions() throws Exception {
    long duckRows = scalarLong("SELECT COUNT(*) FROM " + readParquet());
    Table table = Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable();
    assertThat(
            Instant.parse(table.snapshot(seam.snapshotId()).summary().get("meterstore.watermark")))
        .as("W in the summary of S")
        .isEqualTo(seam.watermark());
    assertThat(duckRows)
        .isEqualTo(
            Long.parseLong(table.snapshot(seam.snapshotId()).summary().get("total-records")));
    assertThat(Long.toString(duckRows)).isEqualTo(store.totals(meterStoreCold(VERSIONS)).get(0));
    assertThat(
            scalarLong(
                "SELECT COUNT(*) FROM " + readParquet() + " WHERE NOT (" + coldBelowW() + ")"))
        .as("rows at or above W in the cold files")
        .isZero();
  }

  @Test
  void thePublishedResolutionReproducesMeterStoresColdPartToTheLastDecimal() throws Exception {
    List<String> meterStore = store.rows(meterStoreCold("SELECT * FROM " + CURRENT));
    assertThat(meterStore).hasSizeGreaterThan(1000);
    assertThat(duckRows("SELECT * FROM " + resolved() + " c")).isEqualTo(meterStore);
    assertThat(duckTotals("SELECT COUNT(*), SUM(\"value\") FROM " + resolved() + " c"))
        .isEqualTo(store.totals(meterStoreCold(CURRENT)));
  }

  @Test
  void aNaiveSumCountsEveryCorrectionAgain() throws Exception {
    List<String> naive = duckTotals("SELECT COUNT(*), SUM(\"value\") FROM " + readParquet());
    List<String> resolvedTotals =
        duckTotals("SELECT COUNT(*), SUM(\"value\") FROM " + resolved() + " c");
    assertThat(naive)
        .as("the naive reader sees every stored version")
        .isEqualTo(store.totals(meterStoreCold(VERSIONS)));
    assertThat(Long.parseLong(naive.get(0)))
        .as("corrected readings in the cold part")
        .isGreaterThan(Long.parseLong(resolvedTotals.get(0)) + 100);
    assertThat(new BigDecimal(naive.get(1)))
        .as("the naive sum overstates the settled energy")
        .isGreaterThan(new BigDecimal(resolvedTotals.get(1)));
  }

  @Test
  void gasGroupedByBalancingDayMatchesMeterStoreAcrossTheAutumnChangeAndByUtcDateDoesNot()
      throws Exception {
    String gas = "\"sparte\" = 'GAS'";
    Map<LocalDate, String> meterStore =
        store.dailyTotals(gas + " AND " + InteropStore.fromBefore(seam.watermark()));
    Map<LocalDate, String> byBalancingDay =
        duckDaily(
            "SELECT \"balancing_day\", SUM(\"value\") FROM "
                + resolved()
                + " c WHERE "
                + gas
                + " GROUP BY 1");
    Map<LocalDate, String> byUtcDate =
        duckDaily(
            "SELECT CAST(\"from\" AS DATE), SUM(\"value\") FROM "
                + resolved()
                + " c WHERE "
                + gas
                + " GROUP BY 1");
    assertThat(meterStore).containsKey(LocalDate.of(2026, 10, 24));
    assertThat(byBalancingDay).isEqualTo(meterStore);
    assertThat(byUtcDate).isNotEqualTo(meterStore);
    // the gas day named after Saturday 24 October 2026 has 25 hours; the UTC date has 24
    String hoursPerMeter =
        "SELECT COUNT(*) // COUNT(DISTINCT \"malo_id\") FROM " + resolved() + " c WHERE " + gas;
    assertThat(scalarLong(hoursPerMeter + " AND \"balancing_day\" = DATE '2026-10-24'"))
        .isEqualTo(25);
    assertThat(scalarLong(hoursPerMeter + " AND CAST(\"from\" AS DATE) = DATE '2026-10-24'"))
        .isEqualTo(24);
  }

  private static long scalarLong(String sql) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<String> duckRows(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(
            InteropStore.line(
                rs.getString("malo_id"),
                rs.getString("obis_code"),
                rs.getObject("from", OffsetDateTime.class).toInstant(),
                rs.getString("version_scope"),
                rs.getBigDecimal("version"),
                rs.getBigDecimal("value"),
                rs.getString("quality"),
                rs.getObject("balancing_day", LocalDate.class)));
      }
    }
    out.sort(null);
    return out;
  }

  private static List<String> duckTotals(String sql) throws SQLException {
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return List.of(Long.toString(rs.getLong(1)), InteropStore.plain(rs.getBigDecimal(2)));
    }
  }

  private static Map<LocalDate, String> duckDaily(String sql) throws SQLException {
    Map<LocalDate, String> out = new TreeMap<>();
    try (Statement s = duck.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.put(rs.getObject(1, LocalDate.class), InteropStore.plain(rs.getBigDecimal(2)));
      }
    }
    return out;
  }
}
