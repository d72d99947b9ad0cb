package org.meterstore.hot.internal.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings MeterStore's schema up to date: creates the schema and its {@code schema_history}, then
 * applies every {@link Migration} not yet recorded there, in version order, in the caller's
 * transaction (PostgreSQL DDL is transactional, so a failing script leaves nothing behind).
 * Concurrent installers serialise on an advisory lock. A recorded script whose checksum differs
 * from the bundled one, or a version this library does not know, is a {@code CONFIG} error.
 */
public final class Migrations {
  /**
   * Every script, in version order; a script is never edited or removed once released. Versions
   * need not be contiguous (a version developed in parallel may land after a higher one): every
   * bundled version missing from {@code schema_history} is applied, in version order, so a version
   * that arrives later must not depend on a higher one.
   */
  static final List<String> SCRIPTS =
      List.of(
          "V001__create_schema.sql",
          "V002__reader_pins.sql",
          "V003__subject_registry.sql",
          "V004__archival_leases.sql",
          "V005__table_floor.sql",
          "V006__table_resolution.sql",
          "V007__committed_watermark.sql",
          "V008__state_pins.sql");

  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);

  private Migrations() {}

  /** All bundled migrations, in version order. */
  public static List<Migration> bundled() {
    return SCRIPTS.stream().map(Migration::load).toList();
  }

  /**
   * Applies the missing migrations to {@code schema} inside {@code c}'s open transaction.
   *
   * @param now recorded as each migration's {@code applied_at}
   * @return how many migrations were applied
   */
  public static int apply(Connection c, String schema, Instant now) throws SQLException {
    AdvisoryLocks.lockExclusive(c, AdvisoryLocks.MIGRATION, AdvisoryLocks.key(schema, ""));
    String history = SqlIdentifiers.qualified(schema, "schema_history");
    if (!schemaExists(c, schema)) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE SCHEMA " + SqlIdentifiers.quote(schema));
      }
    }
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS "
              + history
              + " (version integer PRIMARY KEY, description text NOT NULL,"
              + " checksum text NOT NULL, applied_at timestamptz NOT NULL)");
    }
    Map<Integer, String> applied = applied(c, history);
    List<Migration> bundled = bundled();
    requireKnown(schema, applied, bundled);
    int count = 0;
    for (Migration m : bundled) {
      if (!applied.containsKey(m.version())) {
        run(c, schema, history, m, now);
        count++;
      }
    }
    return count;
  }

  /** Checked first: CREATE SCHEMA IF NOT EXISTS needs the database's CREATE privilege anyway. */
  private static boolean schemaExists(Connection c, String schema) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
      s.setString(1, schema);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static Map<Integer, String> applied(Connection c, String history) throws SQLException {
    Map<Integer, String> applied = new HashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version, checksum FROM " + history)) {
      while (rs.next()) {
        applied.put(rs.getInt(1), rs.getString(2));
      }
    }
    return applied;
  }

  private static void requireKnown(
      String schema, Map<Integer, String> applied, List<Migration> bundled) {
    Map<Integer, Migration> known = new HashMap<>();
    bundled.forEach(m -> known.put(m.version(), m));
    for (Map.Entry<Integer, String> e : applied.entrySet()) {
      Migration m = known.get(e.getKey());
      if (m == null) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Cannot migrate schema "
                + schema
                + ": it is at migration "
                + e.getKey()
                + ", which this MeterStore does not know; use a MeterStore at least as new");
      }
      if (!m.checksum().equals(e.getValue())) {
        throw new MeterStoreException(
            ErrorKind.CONFIG,
            "Cannot migrate schema "
                + schema
                + ": migration "
                + m.version()
                + " was applied from a different script (checksum mismatch)");
      }
    }
  }

  private static void run(Connection c, String schema, String history, Migration m, Instant now)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(m.sql(SqlIdentifiers.quote(schema)));
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + history
                + " (version, description, checksum, applied_at)"
                + " VALUES (?, ?, ?, ?)")) {
      s.setInt(1, m.version());
      s.setString(2, m.description());
      s.setString(3, m.checksum());
      s.setObject(4, now.atOffset(ZoneOffset.UTC));
      s.executeUpdate();
    }
    LOG.info("Applied migration {} ({}) to schema {}", m.version(), m.description(), schema);
  }
}
