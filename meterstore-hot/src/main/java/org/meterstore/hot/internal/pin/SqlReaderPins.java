package org.meterstore.hot.internal.pin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.partition.PartitionCatalog;
import org.meterstore.hot.internal.schema.TableRegistry;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.CatalogEntry;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.hot.pin.ReaderPins;
import org.meterstore.hot.pin.ReaderView;
import org.meterstore.hot.pin.StatePin;

/**
 * Reader pins as rows of {@code <schema>.reader_pins}; every call is one short transaction. Pinning
 * and releasing commit without waiting for the WAL flush ({@code synchronous_commit = off}): the
 * row is visible to every archival run at once, which is all a pin is for, and a crash that loses
 * it also ends the statement it protected. A query pins and releases at every execution, so the two
 * flushes would otherwise be most of a short query's time.
 */
public final class SqlReaderPins implements ReaderPins {
  private final Database db;
  private final PartitionCatalog partitions;

  /** Pins in {@code db}'s schema. */
  public SqlReaderPins(Database db) {
    this.db = db;
    this.partitions = new PartitionCatalog(db.schema());
  }

  @Override
  public ReaderPin pin(String table, Instant from, Instant to, Instant now, Duration ttl) {
    validate(from, to, ttl);
    return db.autocommit(
        () -> "Cannot pin " + table + " [" + from + ", " + to + ")",
        c -> {
          try (PreparedStatement s = c.prepareStatement(OneTrip.writing(insertSql()))) {
            bindPin(s, 1, table, from, to, now, ttl);
            List<Object> results = OneTrip.execute(c, s, List.of(SqlReaderPins::pinId));
            return new ReaderPin((Long) results.get(0), table, from, to, now.plus(ttl));
          }
        });
  }

  @Override
  public ReaderView view(
      TableDefinition table,
      Instant pinFrom,
      Instant pinTo,
      Instant now,
      Duration ttl,
      CatalogEntry entry) {
    boolean pinning = pinFrom != null;
    if (pinning) {
      validate(pinFrom, pinTo, ttl);
    }
    String stateSql =
        "SELECT to_regclass(?) IS NOT NULL, "
            + TableRegistry.committedWatermarkSubquery(db.schema())
            + (entry == null ? "" : ", (" + POINTER_SQL + ")");
    String sql =
        pinning
            ? OneTrip.writing(stateSql, PartitionCatalog.listingSql(), insertSql())
            : OneTrip.reading(stateSql, PartitionCatalog.listingSql());
    PartitionCatalog.Listing listing = partitions.listing(table);
    List<OneTrip.Rows<?>> readers = new ArrayList<>();
    readers.add(SqlReaderPins::stateRow);
    readers.add(listing::read);
    if (pinning) {
      readers.add(SqlReaderPins::pinId);
    }
    List<Object> results =
        db.autocommit(
            () -> "Cannot read the hot state of table " + table.name(),
            c -> {
              try (PreparedStatement s = c.prepareStatement(sql)) {
                int i = 1;
                s.setString(i++, db.qualified(table.name()));
                s.setString(i++, table.name());
                if (entry != null) {
                  i = bindEntry(s, i, entry);
                }
                listing.bind(s, i);
                i += PartitionCatalog.LISTING_PARAMETERS;
                if (pinning) {
                  bindPin(s, i, table.name(), pinFrom, pinTo, now, ttl);
                }
                return OneTrip.execute(c, s, readers);
              }
            });
    Object[] state = (Object[]) results.get(0);
    if (!(Boolean) state[0]) {
      // the pin (if any) names a table that does not exist: it protects nothing and lapses
      throw MeterStoreException.tableMissing(
          table.name(), "the hot tier (" + db.qualified(table.name()) + ")");
    }
    Instant committed = state[1] == null ? Instant.EPOCH : (Instant) state[1];
    @SuppressWarnings("unchecked")
    List<PartitionInfo> listed = (List<PartitionInfo>) results.get(1);
    ReaderPin pin =
        pinning
            ? new ReaderPin((Long) results.get(2), table.name(), pinFrom, pinTo, now.plus(ttl))
            : null;
    return new ReaderView(committed, listed, pin, (String) state[2]);
  }

  /**
   * Iceberg's JDBC catalog table as the connection's search path finds it (where the catalog, on
   * the same database and role, created it); {@link #catalogPointer} proves it is the catalog's.
   */
  private static final String POINTER_SQL =
      "SELECT metadata_location FROM iceberg_tables"
          + " WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?";

  private static int bindEntry(PreparedStatement s, int index, CatalogEntry entry)
      throws SQLException {
    s.setString(index, entry.catalog());
    s.setString(index + 1, entry.namespace());
    s.setString(index + 2, entry.table());
    return index + 3;
  }

  @Override
  public Optional<String> catalogPointer(CatalogEntry entry) {
    return db.autocommit(
        () -> "Cannot look for the catalog entry of " + entry.table(),
        c -> {
          try (PreparedStatement s =
              c.prepareStatement(
                  "SELECT CASE WHEN to_regclass('iceberg_tables') IS NULL THEN false"
                      + " ELSE has_table_privilege(to_regclass('iceberg_tables'), 'SELECT')"
                      + " END")) {
            try (ResultSet rs = s.executeQuery()) {
              rs.next();
              if (!rs.getBoolean(1)) {
                return Optional.<String>empty();
              }
            }
          }
          try (PreparedStatement s = c.prepareStatement(POINTER_SQL)) {
            bindEntry(s, 1, entry);
            try (ResultSet rs = s.executeQuery()) {
              return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  private static void validate(Instant from, Instant to, Duration ttl) {
    if (!to.isAfter(from)) {
      throw MeterStoreException.invalid("pin window", "[" + from + ", " + to + ")", "not empty");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw MeterStoreException.invalid("pin ttl", ttl, "positive");
    }
  }

  private String insertSql() {
    return "INSERT INTO "
        + db.qualified("reader_pins")
        + " (table_name, lower_bound, upper_bound, created_at, expires_at)"
        + " VALUES (?, ?, ?, ?, ?) RETURNING id";
  }

  private static void bindPin(
      PreparedStatement s,
      int index,
      String table,
      Instant from,
      Instant to,
      Instant now,
      Duration ttl)
      throws SQLException {
    s.setString(index, table);
    s.setTimestamp(index + 1, Timestamp.from(from));
    s.setTimestamp(index + 2, Timestamp.from(to));
    s.setTimestamp(index + 3, Timestamp.from(now));
    s.setTimestamp(index + 4, Timestamp.from(now.plus(ttl)));
  }

  private static Long pinId(ResultSet rs) throws SQLException {
    rs.next();
    return rs.getLong(1);
  }

  private static Object[] stateRow(ResultSet rs) throws SQLException {
    rs.next();
    OffsetDateTime committed = rs.getObject(2, OffsetDateTime.class);
    String pointer = rs.getMetaData().getColumnCount() > 2 ? rs.getString(3) : null;
    return new Object[] {
      rs.getBoolean(1), committed == null ? null : committed.toInstant(), pointer
    };
  }

  @Override
  public void release(long id) {
    db.autocommit(
        () -> "Cannot release reader pin " + id,
        c -> {
          String delete = "DELETE FROM " + db.qualified("reader_pins") + " WHERE id = ?";
          try (PreparedStatement s = c.prepareStatement(OneTrip.writing(delete))) {
            s.setLong(1, id);
            return OneTrip.execute(c, s, List.of());
          }
        });
  }

  @Override
  public void releaseAfter(Connection connection, List<Long> ids) {
    // ROLLBACK first: the open transaction is read-only and its cursor holds the partitions' locks
    String sql =
        "ROLLBACK; "
            + OneTrip.writing("DELETE FROM " + db.qualified("reader_pins") + " WHERE id = ANY (?)");
    try (PreparedStatement s = connection.prepareStatement(sql)) {
      s.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
      OneTrip.execute(connection, s, List.of());
    } catch (SQLException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot release reader pins " + ids + ": " + e.getMessage(), e);
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

  /** The upper bound of a state pin's hot window: every partition from W up. */
  private static final Instant OPEN_END = Instant.parse("9999-01-01T00:00:00Z");

  @Override
  public StatePin pinState(
      String table, Long snapshotId, Instant watermark, String holder, Instant now, Duration ttl) {
    if (holder == null || holder.isBlank()) {
      throw MeterStoreException.invalid("pin holder", holder, "a non-blank label");
    }
    validate(watermark, OPEN_END, ttl);
    String sql =
        "INSERT INTO "
            + db.qualified("reader_pins")
            + " (table_name, lower_bound, upper_bound, created_at, expires_at, holder, snapshot_id,"
            + " watermark) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id";
    long id =
        db.transaction(
            () -> "Cannot pin the state of " + table,
            c -> {
              try (PreparedStatement s = c.prepareStatement(sql)) {
                bindPin(s, 1, table, watermark, OPEN_END, now, ttl);
                s.setString(6, holder);
                if (snapshotId == null) {
                  s.setNull(7, java.sql.Types.BIGINT);
                } else {
                  s.setLong(7, snapshotId);
                }
                s.setTimestamp(8, Timestamp.from(watermark));
                try (ResultSet rs = s.executeQuery()) {
                  return pinId(rs);
                }
              }
            });
    return new StatePin(id, table, holder, snapshotId, watermark, now, now.plus(ttl));
  }

  @Override
  public List<StatePin> statePins(String table, Instant now) {
    String sql =
        "SELECT id, holder, snapshot_id, watermark, created_at, expires_at FROM "
            + db.qualified("reader_pins")
            + " WHERE table_name = ? AND expires_at > ? AND holder IS NOT NULL ORDER BY id";
    return db.transaction(
        () -> "Cannot list the state pins of " + table,
        c -> {
          try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, table);
            s.setTimestamp(2, Timestamp.from(now));
            List<StatePin> pins = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
              while (rs.next()) {
                long snapshot = rs.getLong(3);
                pins.add(
                    new StatePin(
                        rs.getLong(1),
                        table,
                        rs.getString(2),
                        rs.wasNull() ? null : snapshot,
                        rs.getTimestamp(4).toInstant(),
                        rs.getTimestamp(5).toInstant(),
                        rs.getTimestamp(6).toInstant()));
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
