package org.meterstore.hot.internal.subject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.Year;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.subject.SubjectRef;

/**
 * The SQL on the {@code subjects} (mappings) and {@code subject_holds} tables that registration,
 * erasure and holds share. Runs in the caller's transaction; the caller holds the identifier's
 * advisory lock.
 */
final class SubjectRows {
  private final String subjects;
  private final String holds;

  SubjectRows(String schema) {
    this.subjects = SqlIdentifiers.qualified(schema, "subjects");
    this.holds = SqlIdentifiers.qualified(schema, "subject_holds");
  }

  /**
   * The reference of (person, year), if registered. {@code FOR KEY SHARE}, so a sweep running now
   * skips the row instead of erasing a reference this call is about to hand out.
   */
  Optional<SubjectRef> find(Connection c, String naturalId, Year year) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT reference FROM "
                + subjects
                + " WHERE natural_id = ? AND collection_year = ? FOR KEY SHARE")) {
      s.setString(1, naturalId);
      s.setInt(2, year.getValue());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(new SubjectRef(rs.getString(1))) : Optional.empty();
      }
    }
  }

  void insert(Connection c, SubjectRef reference, String naturalId, Year year, Instant now)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + subjects
                + " (reference, natural_id, collection_year, registered_at) VALUES (?, ?, ?, ?)")) {
      s.setString(1, reference.value());
      s.setString(2, naturalId);
      s.setInt(3, year.getValue());
      s.setObject(4, now.atOffset(ZoneOffset.UTC));
      s.executeUpdate();
    }
  }

  /** The (normalised) identifier {@code reference} maps to, if the mapping exists. */
  Optional<String> naturalIdOf(Connection c, SubjectRef reference) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT natural_id FROM " + subjects + " WHERE reference = ?")) {
      s.setString(1, reference.value());
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    }
  }

  /**
   * Locks every mapping of the person, so that a sweep in flight either finishes first or skips
   * them; returns the references still there once locked.
   */
  List<SubjectRef> lockAll(Connection c, String naturalId) throws SQLException {
    List<SubjectRef> locked = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT reference FROM " + subjects + " WHERE natural_id = ? FOR UPDATE")) {
      s.setString(1, naturalId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          locked.add(new SubjectRef(rs.getString(1)));
        }
      }
    }
    return locked;
  }

  /** Deletes every mapping of the person; returns the erased references, sorted. */
  List<SubjectRef> deleteAll(Connection c, String naturalId) throws SQLException {
    List<SubjectRef> erased = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            "DELETE FROM " + subjects + " WHERE natural_id = ? RETURNING reference")) {
      s.setString(1, naturalId);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          erased.add(new SubjectRef(rs.getString(1)));
        }
      }
    }
    erased.sort(Comparator.comparing(SubjectRef::value));
    return erased;
  }

  /** The person's references under a hold that lasts beyond {@code now}, sorted. */
  List<SubjectRef> activeHolds(Connection c, String naturalId, Instant now) throws SQLException {
    List<SubjectRef> held = new ArrayList<>();
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT h.reference FROM "
                + holds
                + " h JOIN "
                + subjects
                + " m ON m.reference = h.reference WHERE m.natural_id = ?"
                + " AND (h.held_until IS NULL OR h.held_until > ?) ORDER BY h.reference")) {
      s.setString(1, naturalId);
      s.setObject(2, now.atOffset(ZoneOffset.UTC));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          held.add(new SubjectRef(rs.getString(1)));
        }
      }
    }
    return held;
  }

  /** Places or replaces the hold on {@code reference}. */
  void hold(Connection c, SubjectRef reference, Audit audit, Instant until) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + holds
                + " (reference, reason, held_until, actor, placed_at) VALUES (?, ?, ?, ?, ?)"
                + " ON CONFLICT (reference) DO UPDATE SET reason = excluded.reason,"
                + " held_until = excluded.held_until, actor = excluded.actor,"
                + " placed_at = excluded.placed_at")) {
      s.setString(1, reference.value());
      s.setString(2, audit.reason());
      s.setObject(3, until == null ? null : until.atOffset(ZoneOffset.UTC));
      s.setString(4, audit.actor());
      s.setObject(5, audit.now().atOffset(ZoneOffset.UTC));
      s.executeUpdate();
    }
  }

  /** Removes the hold on {@code reference}; false when there was none. */
  boolean release(Connection c, SubjectRef reference) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("DELETE FROM " + holds + " WHERE reference = ?")) {
      s.setString(1, reference.value());
      return s.executeUpdate() > 0;
    }
  }
}
