package org.meterstore.hot.internal.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.internal.sql.Database;

/**
 * Drops one table from the hot tier in one transaction under {@code lock_timeout}: the partitioned
 * parent (which takes its attached partitions with it), every detached leftover partition of that
 * table, and its registry row (whose foreign keys remove its leases and reader pins). PostgreSQL's
 * DDL is transactional, so a lock timeout or any other failure leaves everything as it was. The
 * table's archival lease is tried inside the transaction: a purge never races a running archival.
 */
public final class TablePurger {
  private static final Pattern PARTITION_SUFFIX = Pattern.compile("_\\d{4}_\\d{2}_\\d{2}_\\d{4}");

  private final Database db;

  public TablePurger(Database db) {
    this.db = db;
  }

  /**
   * Drops {@code table}; returns the relations dropped (parent first), empty when nothing existed.
   */
  public List<String> purge(String table) {
    SqlIdentifiers.quote(table);
    return db.ddl(() -> "purge table " + table, c -> purge(c, table));
  }

  private List<String> purge(Connection c, String table) throws SQLException {
    lockOutArchival(c, table);
    List<String> dropped = new ArrayList<>();
    if (exists(c, table)) {
      // Attached partitions go with their parent; list them first for the report.
      dropped.add(table);
      dropped.addAll(attached(c, table));
      drop(c, table);
    }
    for (String leftover : detached(c, table)) {
      drop(c, leftover);
      dropped.add(leftover);
    }
    if (registryExists(c)) {
      try (PreparedStatement s =
          c.prepareStatement("DELETE FROM " + db.qualified("tables") + " WHERE name = ?")) {
        s.setString(1, table);
        s.executeUpdate();
      }
    }
    return dropped;
  }

  private void lockOutArchival(Connection c, String table) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?, ?)")) {
      s.setInt(1, AdvisoryLocks.ARCHIVAL_LEASE);
      s.setInt(2, AdvisoryLocks.key(db.schema(), table));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1)) {
          throw new MeterStoreException(
              ErrorKind.LOCK_TIMEOUT,
              "Cannot purge table "
                  + table
                  + ": its archival lease is held (archival is running); nothing was dropped");
        }
      }
    }
  }

  private boolean exists(Connection c, String relation) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, db.qualified(relation));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private boolean registryExists(Connection c) throws SQLException {
    return exists(c, "tables");
  }

  private List<String> attached(Connection c, String table) throws SQLException {
    return names(
        c,
        "SELECT k.relname FROM pg_inherits i JOIN pg_class k ON k.oid = i.inhrelid"
            + " WHERE i.inhparent = to_regclass(?) ORDER BY k.relname",
        db.qualified(table),
        null);
  }

  /**
   * Plain tables named like a partition of {@code table} that belong to no parent: partitions
   * archival detached and has not yet reclaimed. A registered table's name is never one of them.
   */
  private List<String> detached(Connection c, String table) throws SQLException {
    String sql =
        "SELECT k.relname FROM pg_class k JOIN pg_namespace n ON n.oid = k.relnamespace"
            + " WHERE n.nspname = ? AND k.relkind = 'r' AND k.relname ~ ?"
            + " AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = k.oid)"
            + (registryExists(c)
                ? " AND k.relname NOT IN (SELECT name FROM " + db.qualified("tables") + ")"
                : "")
            + " ORDER BY k.relname";
    return names(c, sql, db.schema(), "^" + table + PARTITION_SUFFIX.pattern() + "$");
  }

  private static List<String> names(Connection c, String sql, String first, String second)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, first);
      if (second != null) {
        s.setString(2, second);
      }
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  private void drop(Connection c, String relation) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE " + db.qualified(relation));
    }
  }
}
