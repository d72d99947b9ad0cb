package org.meterstore.hot.internal.subject;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.TrailAction;
import org.meterstore.hot.subject.TrailEntry;
import org.meterstore.hot.subject.Trigger;

/**
 * Appends to and reads the {@code erasure_trail} table, in the caller's transaction so that an
 * entry commits together with the change it records. The table refuses UPDATE, DELETE and TRUNCATE
 * by trigger. Appending needs only INSERT on the table (no RETURNING, which would need SELECT).
 */
final class ErasureTrail {
  private static final String COLUMNS =
      "at, action, trigger, subject_references, affected, reason, actor, held_until,"
          + " due_through, suppression_key_id";

  private final String table;

  ErasureTrail(String schema) {
    this.table = SqlIdentifiers.qualified(schema, "erasure_trail");
  }

  /** Appends {@code entry}; its {@link TrailEntry#sequence()} is ignored and assigned here. */
  void append(Connection c, TrailEntry entry) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setObject(1, entry.at().atOffset(ZoneOffset.UTC));
      s.setString(2, entry.action().name());
      s.setString(3, entry.trigger() == null ? null : entry.trigger().attributeValue());
      String[] refs = entry.references().stream().map(SubjectRef::value).toArray(String[]::new);
      s.setArray(4, c.createArrayOf("text", refs));
      s.setInt(5, entry.affected());
      s.setString(6, entry.reason());
      s.setString(7, entry.actor());
      s.setObject(8, entry.heldUntil() == null ? null : entry.heldUntil().atOffset(ZoneOffset.UTC));
      if (entry.dueThrough() == null) {
        s.setNull(9, Types.INTEGER);
      } else {
        s.setInt(9, entry.dueThrough().getValue());
      }
      s.setString(10, entry.suppressionKeyId());
      s.executeUpdate();
    }
  }

  /**
   * The entries with {@code from <= at < to}, oldest first.
   *
   * @param erasuresOnly only {@code ERASE} entries
   * @param trigger only this trigger, or null
   */
  List<TrailEntry> read(
      Connection c, Instant from, Instant to, boolean erasuresOnly, Trigger trigger, int limit)
      throws SQLException {
    String sql =
        "SELECT id, "
            + COLUMNS
            + " FROM "
            + table
            + " WHERE at >= ? AND at < ?"
            + (erasuresOnly ? " AND action = 'ERASE'" : "")
            + (trigger == null ? "" : " AND trigger = ?")
            + " ORDER BY at, id LIMIT ?";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      int i = 1;
      s.setObject(i++, from.atOffset(ZoneOffset.UTC));
      s.setObject(i++, to.atOffset(ZoneOffset.UTC));
      if (trigger != null) {
        s.setString(i++, trigger.attributeValue());
      }
      s.setInt(i, limit);
      List<TrailEntry> entries = new ArrayList<>();
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          entries.add(entry(rs));
        }
      }
      return entries;
    }
  }

  private static TrailEntry entry(ResultSet rs) throws SQLException {
    String trigger = rs.getString(4);
    Array refs = rs.getArray(5);
    int due = rs.getInt(10);
    Year dueThrough = rs.wasNull() ? null : Year.of(due);
    return new TrailEntry(
        rs.getLong(1),
        rs.getObject(2, OffsetDateTime.class).toInstant(),
        TrailAction.valueOf(rs.getString(3)),
        trigger == null ? null : Trigger.fromAttributeValue(trigger),
        Arrays.stream((String[]) refs.getArray()).map(SubjectRef::new).toList(),
        rs.getInt(6),
        rs.getString(7),
        rs.getString(8),
        instant(rs.getObject(9, OffsetDateTime.class)),
        dueThrough,
        rs.getString(11));
  }

  private static Instant instant(OffsetDateTime value) {
    return value == null ? null : value.toInstant();
  }
}
