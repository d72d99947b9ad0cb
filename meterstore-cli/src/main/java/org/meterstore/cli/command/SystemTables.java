package org.meterstore.cli.command;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.meterstore.MeterCatalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Rows;

/**
 * Reads {@code system.tables} after refreshing it at {@code now}, and names what makes a table
 * unhealthy: <em>stranded rows</em> (hot rows below the watermark: answers are wrong now) or an
 * <em>exhausted runway</em> (no attached partition ends after {@code now}: writes fail shortly), or
 * a tier that could not be read.
 */
final class SystemTables {
  private SystemTables() {}

  /** The rows of {@code system.tables} at {@code now}, in declaration order. */
  static Rows read(MeterCatalog catalog, Instant now) throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM \"system\".\"tables\"")) {
      Rows rows = ResultSets.read(rs, Integer.MAX_VALUE);
      List<String> order = catalog.tables().stream().map(t -> t.name()).toList();
      List<List<Object>> sorted = new ArrayList<>(rows.rows());
      int table = rows.columns().indexOf("table");
      sorted.sort(java.util.Comparator.comparingInt(r -> order.indexOf((String) r.get(table))));
      return new Rows(rows.columns(), sorted);
    }
  }

  /**
   * One problem per unhealthy table: columns {@code table}, {@code problem}, {@code detail}. A
   * table missing from a tier ({@code missing}: purged, or never created) has that one problem
   * only.
   */
  static Rows problems(Rows tables, Map<String, Set<Tier>> missing) {
    return problems(tables, missing, Map.of());
  }

  /**
   * As {@link #problems(Rows, Map)}, and a {@code storage_unreachable} problem for each table in
   * {@code unreachable} (table → why), whose row {@code system.tables} may call healthy: a catalog
   * that serves metadata itself keeps W readable while the object store is down.
   */
  static Rows problems(
      Rows tables, Map<String, Set<Tier>> missing, Map<String, String> unreachable) {
    List<List<Object>> out = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      String table = (String) tables.get(i, "table");
      if (unreachable.containsKey(table)) {
        out.add(List.of(table, "storage_unreachable", unreachable.get(table)));
      }
      if (Boolean.TRUE.equals(tables.get(i, "healthy"))) {
        continue;
      }
      Set<Tier> absent = missing.getOrDefault(table, Set.of());
      if (!absent.isEmpty()) {
        out.add(List.of(table, "missing", missingDetail(absent)));
        continue;
      }
      long violations = number(tables.get(i, "invariant_violations"));
      long hotPartitions = number(tables.get(i, "hot_partitions"));
      long ahead = number(tables.get(i, "partitions_ahead"));
      if (tables.get(i, "watermark") == null) {
        out.add(
            List.of(
                table,
                "watermark_unreadable",
                "the cold tier's watermark cannot be read (is the catalog or the object store"
                    + " unreachable? see the log line above)"));
      }
      if (wentBack(tables.get(i, "watermark"), tables.get(i, "committed_watermark"))) {
        out.add(
            List.of(
                table,
                "watermark_went_back",
                "the cold tier's watermark is below "
                    + tables.get(i, "committed_watermark")
                    + ", the last one MeterStore committed: the table was rolled back behind it,"
                    + " readings are missing from both tiers and queries and archival refuse it"
                    + " (roll the table forward; see docs/operations.md)"));
      }
      if (hotPartitions < 0) {
        out.add(List.of(table, "partitions_unreadable", "the hot partitions cannot be listed"));
      }
      if (violations > 0) {
        out.add(
            List.of(
                table,
                "stranded_rows",
                violations
                    + " hot rows lie below the watermark (answers are wrong until an operator"
                    + " moves them; see docs/operations.md)"));
      } else if (violations < 0 && hotPartitions >= 0 && tables.get(i, "watermark") != null) {
        out.add(
            List.of(table, "invariant_unchecked", "rows below the watermark cannot be counted"));
      }
      if (hotPartitions > 0 && ahead == 0) {
        out.add(
            List.of(
                table,
                "exhausted_runway",
                "no attached partition ends after now: writes will fail (run 'meterstore maintain"
                    + " --once' to pre-create partitions)"));
      }
      if (out.stream().noneMatch(p -> p.get(0).equals(table))) {
        out.add(List.of(table, "unhealthy", "system.tables reports the table unhealthy"));
      }
    }
    return new Rows(List.of("table", "problem", "detail"), out);
  }

  /** The tiers each declared table is missing from (empty sets for tables that exist). */
  static Map<String, Set<Tier>> missing(MeterCatalog catalog) {
    Map<String, Set<Tier>> missing = new LinkedHashMap<>();
    for (TableDefinition t : catalog.tables()) {
      try {
        missing.put(t.name(), catalog.table(t.name()).missingTiers());
      } catch (MeterStoreException e) {
        if (!e.isRetryable()) {
          throw e;
        }
        // A tier that does not answer is not a missing table: its row says what is unreadable.
        missing.put(t.name(), Set.of());
      }
    }
    return missing;
  }

  /**
   * The tables whose object store does not answer (one bounded request each), with the reason;
   * tables missing from the cold tier, or whose watermark already could not be read, are skipped.
   */
  static Map<String, String> unreachableStorage(
      MeterCatalog catalog, Rows tables, Map<String, Set<Tier>> missing) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < tables.size(); i++) {
      String table = (String) tables.get(i, "table");
      if (tables.get(i, "watermark") == null
          || missing.getOrDefault(table, Set.of()).contains(Tier.COLD)) {
        continue;
      }
      try {
        catalog.table(table).checkStorage();
      } catch (MeterStoreException e) {
        if (!e.isRetryable()) {
          throw e;
        }
        out.put(table, e.getMessage());
      }
    }
    return out;
  }

  private static String missingDetail(Set<Tier> absent) {
    String where =
        absent.size() == 2
            ? "in either tier"
            : absent.contains(Tier.HOT) ? "in PostgreSQL (the cold table is left)" : "in Iceberg";
    return "the table does not exist "
        + where
        + ": it was purged or never created; remove it from the configuration file, or run"
        + " 'meterstore create' to create it (again, empty)";
  }

  private static boolean wentBack(Object watermark, Object committed) {
    return watermark instanceof Instant w && committed instanceof Instant c && w.isBefore(c);
  }

  private static long number(Object value) {
    return value instanceof Number n ? n.longValue() : -1;
  }
}
