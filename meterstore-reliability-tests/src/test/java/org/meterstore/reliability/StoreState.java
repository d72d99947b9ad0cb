package org.meterstore.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.testing.TestDatabase;

/**
 * What a refused call must leave unchanged, read from outside MeterStore where possible: the hot
 * rows (count and value sum of every parent, read as the test database's superuser), every relation
 * of every non-system schema (so no partition, table or schema appeared or vanished), the subject
 * registry, the cold snapshots and rows of every table, and what SQL over both tiers answers.
 */
final class StoreState {
  private final TestDatabase db;
  private final MeterCatalog catalog;
  private final List<String> tables;

  StoreState(TestDatabase db, MeterCatalog catalog, List<String> tables) {
    this.db = db;
    this.catalog = catalog;
    this.tables = tables;
  }

  /** Everything compared, as one value. */
  record Snapshot(
      Map<String, String> hotRows,
      String relations,
      long subjects,
      Map<String, String> coldSnapshots,
      Map<String, Long> coldRows,
      Map<String, String> sql) {}

  Snapshot snapshot() throws SQLException {
    Map<String, String> hot = new TreeMap<>();
    Map<String, String> snapshots = new TreeMap<>();
    Map<String, Long> cold = new TreeMap<>();
    Map<String, String> sql = new TreeMap<>();
    String relations;
    long subjects;
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        hot.put(t, row(s, "SELECT count(*), sum(value) FROM meterstore.\"" + t + "\""));
      }
      relations =
          row(
              s,
              "SELECT count(*), md5(string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text,"
                  + " ',' ORDER BY n.nspname, c.relname)) FROM pg_class c JOIN pg_namespace n"
                  + " ON n.oid = c.relnamespace WHERE n.nspname NOT LIKE 'pg\\_%'"
                  + " AND n.nspname <> 'information_schema'");
      relations +=
          " schemas "
              + row(s, "SELECT string_agg(nspname, ',' ORDER BY nspname)" + " FROM pg_namespace");
      subjects = Long.parseLong(row(s, "SELECT count(*) FROM meterstore.subjects"));
    }
    for (String t : tables) {
      List<SnapshotInfo> all = Tiers.coldTable(catalog, t).snapshots();
      snapshots.put(t, all.toString());
      cold.put(t, coldRows(t));
    }
    try (Connection c = catalog.connection();
        Statement s = c.createStatement()) {
      for (String t : tables) {
        sql.put(t, row(s, "SELECT count(*), sum(\"value\") FROM \"" + t + "_versions\""));
      }
    }
    return new Snapshot(hot, relations, subjects, snapshots, cold, sql);
  }

  /** Per table: healthy and no invariant violation, after a refresh at {@code now}. */
  Map<String, Boolean> health(Instant now) throws SQLException {
    catalog.refreshSystemTables(now);
    Map<String, Boolean> out = new TreeMap<>();
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"table\", \"healthy\", \"invariant_violations\" FROM \"system\".tables")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getBoolean(2) && rs.getLong(3) == 0);
      }
    }
    if (out.keySet().size() != tables.size()) {
      throw new AssertionError("system.tables lists " + out.keySet() + ", expected " + tables);
    }
    return out;
  }

  private long coldRows(String table) {
    long n = 0;
    try (CloseableIterable<Object[]> rows = Tiers.coldTable(catalog, table).read()) {
      for (Object[] ignored : rows) {
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }

  private static String row(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      StringBuilder out = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.append(i > 1 ? "/" : "").append(rs.getString(i));
      }
      return out.toString();
    }
  }
}
