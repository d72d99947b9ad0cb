package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
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
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
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
  @TempDir static Path warehouse;

  private static InteropStore store;
  private static InteropStore.Seam seam;
  private static List<String> files;
  private static Connection duck;

  @BeforeAll
  static void build(TestDatabase db) throws Exception {
    store = InteropStore.build(db, warehouse);
    seam = store.seam();
    files = dataFiles(store.catalog().coldTable(InteropStore.TABLE).icebergTable(), seam);
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

  /** The local paths of S's data files; S must have no delete files (the docs' precondition). */
  private static List<String> dataFiles(Table table, InteropStore.Seam seam) throws Exception {
    List<String> out = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(seam.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.deletes()).as("delete files in " + task.file().location()).isEmpty();
        out.add(Path.of(URI.create(task.file().location())).toString());
      }
    }
    assertThat(out).as("data files of snapshot " + seam.snapshotId()).isNotEmpty();
    return out;
  }

  private static String readParquet() {
    return "read_parquet(["
        + String.join(", ", files.stream().map(f -> "'" + f.replace("'", "''") + "'").toList())
        + "])";
  }

  private static String coldBelowW() {
    return "\"from\" < TIMESTAMPTZ '" + seam.watermark() + "'";
  }

  @Test
  void rowCountsOfTheSnapshotsFilesMatchMeterStoresVersions() throws Exception {
    long duckRows = scalarLong("SELECT COUNT(*) FROM " + readParquet());
    assertThat(duckRows)
        .isEqualTo(
            Long.parseLong(
                store
                    .catalog()
                    .coldTable(InteropStore.TABLE)
                    .icebergTable()
                    .snapshot(seam.snapshotId())
                    .summary()
                    .get("total-records")));
    assertThat(Long.toString(duckRows))
        .isEqualTo(
            store
                .totals(
                    "\""
                        + InteropStore.TABLE
                        + "_versions\" WHERE \"from\" < TIMESTAMP '"
                        + sqlTimestamp(seam.watermark())
                        + "'")
                .get(0));
  }

  private static String sqlTimestamp(Instant instant) {
    return instant.toString().replace('T', ' ').replace("Z", "");
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
