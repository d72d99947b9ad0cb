package org.meterstore.hot.internal.pin;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.hot.pin.ReaderPins;

/**
 * Reader pins as rows of {@code <schema>.reader_pins}; every call is one short transaction. Pinning
 * and releasing commit without waiting for the WAL flush ({@code synchronous_commit = off}): the
 * row is visible to every archival run at once, which is all a pin is for, and a crash that loses
 * it also ends the statement it protected. A query pins and releases at every execution, so the two
 * flushes would otherwise be most of a short query's time.
 */
public final class SqlReaderPins implements ReaderPins {
  private final Database db;

  /** Pins in {@code db}'s schema. */
  public SqlReaderPins(Database db) {
    this.db = db;
  }

  @Override
  public ReaderPin pin(String table, Instant from, Instant to, Instant now, Duration ttl) {
    if (!to.isAfter(from)) {
      throw MeterStoreException.invalid("pin window", "[" + from + ", " + to + ")", "not empty");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw MeterStoreException.invalid("pin ttl", ttl, "positive");
    }
    Instant expiresAt = now.plus(ttl);
    String sql =
        "INSERT INTO "
            + db.qualified("reader_pins")
            + " (table_name, lower_bound, upper_bound, created_at, expires_at)"
            + " VALUES (?, ?, ?, ?, ?) RETURNING id";
    long id =
        db.transaction(
            () -> "Cannot pin " + table + " [" + from + ", " + to + ")",
            c -> {
              asynchronousCommit(c);
              try (PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, table);
                s.setTimestamp(2, Timestamp.from(from));
                s.setTimestamp(3, Timestamp.from(to));
                s.setTimestamp(4, Timestamp.from(now));
                s.setTimestamp(5, Timestamp.from(expiresAt));
                try (ResultSet rs = s.executeQuery()) {
                  rs.next();
                  return rs.getLong(1);
                }
              }
            });
    return new ReaderPin(id, table, from, to, expiresAt);
  }

  @Override
  public void release(long id) {
    db.transaction(
        () -> "Cannot release reader pin " + id,
        c -> {
          asynchronousCommit(c);
          try (PreparedStatement s =
              c.prepareStatement("DELETE FROM " + db.qualified("reader_pins") + " WHERE id = ?")) {
            s.setLong(1, id);
            return s.executeUpdate();
          }
        });
  }

  private static void asynchronousCommit(java.sql.Connection c) throws java.sql.SQLException {
    try (java.sql.Statement s = c.createStatement()) {
      s.execute("SET LOCAL synchronous_commit = off");
    }
  }

  @Override
  public List<ReaderPin> active(String table, Instant now) {
    String sql =
        "SELECT id, lower_bound, upper_bound, expires_at FROM "
            + db.qualified("reader_pins")
            + " WHERE table_name = ? AND expires_at > ? ORDER BY id";
    return db.transaction(
        () -> "Cannot list reader pins of " + table,
        c -> {
          try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, table);
            s.setTimestamp(2, Timestamp.from(now));
            List<ReaderPin> pins = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                pins.add(
                    new ReaderPin(
                        rs.getLong(1),
                        table,
                        rs.getTimestamp(2).toInstant(),
                        rs.getTimestamp(3).toInstant(),
                        rs.getTimestamp(4).toInstant()));
              }
            }
            return pins;
          }
        });
  }

  @Override
  public int purgeExpired(Instant now) {
    return db.transaction(
        () -> "Cannot purge expired reader pins",
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "DELETE FROM " + db.qualified("reader_pins") + " WHERE expires_at <= ?")) {
            s.setTimestamp(1, Timestamp.from(now));
            return s.executeUpdate();
          }
        });
  }
}
