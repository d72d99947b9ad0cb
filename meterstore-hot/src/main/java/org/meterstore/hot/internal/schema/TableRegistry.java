package org.meterstore.hot.internal.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;

/**
 * The {@code <schema>.tables} registry: one row per declared table with its time model, archival
 * step, creation instant, the longest span that crosses a partition bound and the table's floor.
 * Plain JDBC on the caller's connection and transaction: identifiers are quoted by {@link
 * Identifiers}, every value is bound. Intervals travel as ISO-8601 text ({@link Duration#toString})
 * and come back as whole seconds, rounded up so that a bound derived from them is never too narrow.
 */
public final class TableRegistry {
  /**
   * What the registry holds for one table.
   *
   * @param timeModel {@code INTERVAL} or {@code POINT}
   * @param archivalStep the partition width the table was created with
   * @param resolution the fixed resolution it was created with (canonical ISO-8601), or null
   */
  public record Entry(String timeModel, Duration archivalStep, String resolution) {}

  /** The floor column (V005); null while no floor was recorded. */
  public static final String FLOOR = "hot_floor";

  /** The committed watermark column (V007); null while none was recorded. */
  public static final String COMMITTED = "committed_watermark";

  private static final String BY_NAME = " WHERE " + SqlIdentifiers.quote("name") + " = ?";

  private final Connection c;
  private final String tables;

  /** The registry of {@code schema}, read and written through {@code c}. */
  public TableRegistry(Connection c, String schema) {
    this.c = c;
    this.tables = SqlIdentifiers.qualified(schema, "tables");
  }

  /** The entry of {@code table}, if it was created. */
  public Optional<Entry> find(String table) throws SQLException {
    String sql =
        "SELECT "
            + q("time_model")
            + ", "
            + seconds("archival_step")
            + ", "
            + q("resolution")
            + " FROM "
            + tables
            + BY_NAME;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next()
            ? Optional.of(
                new Entry(rs.getString(1), Duration.ofSeconds(rs.getLong(2)), rs.getString(3)))
            : Optional.empty();
      }
    }
  }

  /**
   * Records {@code table} as created at {@code now} with its time model, archival step and fixed
   * resolution, without a crossing span or a floor.
   */
  public void insert(TableDefinition table, Instant now) throws SQLException {
    String sql =
        "INSERT INTO "
            + tables
            + " ("
            + SqlIdentifiers.quoteAll(
                List.of("name", "time_model", "archival_step", "created_at", "resolution"))
            + ") VALUES (?, ?, cast(? AS interval), ?, ?)";
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, table.name());
      s.setString(2, table.timeModel().name());
      s.setString(3, table.policy().archivalStep().toString());
      s.setObject(4, now.atOffset(ZoneOffset.UTC));
      s.setString(5, table.resolution() == null ? null : table.resolution().iso());
      s.executeUpdate();
    }
  }

  /**
   * The longest span of a stored reading of {@code table} that crosses its partition's upper bound,
   * or empty while there is none.
   */
  public Optional<Duration> longestCrossingSpan(String table) throws SQLException {
    String sql = "SELECT " + seconds("longest_crossing_span") + " FROM " + tables + BY_NAME;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        long value = rs.getLong(1);
        return rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofSeconds(value));
      }
    }
  }

  /** Raises the recorded longest crossing span of {@code table} to at least {@code span}. */
  public void recordCrossingSpan(String table, Duration span) throws SQLException {
    String column = q("longest_crossing_span");
    String sql =
        "UPDATE "
            + tables
            + " SET "
            + column
            + " = greatest(coalesce("
            + column
            + ", interval '0'), cast(? AS interval))"
            + BY_NAME;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, span.toString());
      s.setString(2, table);
      s.executeUpdate();
    }
  }

  /** The floor recorded for {@code table}; empty when none was, or the table is not registered. */
  public Optional<Instant> floor(String table) throws SQLException {
    return instantColumn(FLOOR, table);
  }

  /**
   * The committed watermark recorded for {@code table}; empty when none was, or the table is not
   * registered.
   */
  public Optional<Instant> committedWatermark(String table) throws SQLException {
    return instantColumn(COMMITTED, table);
  }

  /**
   * A scalar subquery for the committed watermark of the table named by one bound parameter (null
   * when none was recorded or the table is not registered), for statements that read it beside
   * other state in one round trip.
   */
  public static String committedWatermarkSubquery(String schema) {
    return "(SELECT "
        + q(COMMITTED)
        + " FROM "
        + SqlIdentifiers.qualified(schema, "tables")
        + BY_NAME
        + ")";
  }

  /** One timestamp column of {@code table}'s row; empty when null or not registered. */
  private Optional<Instant> instantColumn(String column, String table) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("SELECT " + q(column) + " FROM " + tables + BY_NAME)) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.ofNullable(instant(rs, 1)) : Optional.empty();
      }
    }
  }

  /**
   * Raises the committed watermark and the floor of {@code table} to {@code w} where they are below
   * it (neither is ever lowered). Takes the row's lock, like {@link #raiseFloor}.
   *
   * @return the floor now recorded, or empty when the table is not registered
   */
  public Optional<Instant> raiseCommitted(String table, Instant w) throws SQLException {
    String floor = q(FLOOR);
    String committed = q(COMMITTED);
    String sql =
        "UPDATE "
            + tables
            + " SET "
            + floor
            + " = greatest("
            + floor
            + ", ?), "
            + committed
            + " = greatest("
            + committed
            + ", ?)"
            + BY_NAME
            + " RETURNING "
            + floor;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setObject(1, w.atOffset(ZoneOffset.UTC));
      s.setObject(2, w.atOffset(ZoneOffset.UTC));
      s.setString(3, table);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.ofNullable(instant(rs, 1)) : Optional.empty();
      }
    }
  }

  /**
   * Raises the floor of {@code table} to {@code floor} unless it is already at or above it (a lower
   * value changes nothing). Takes the row's lock, so it waits for writes that hold it {@code FOR
   * SHARE}.
   *
   * @return the floor now recorded, or empty when the table is not registered
   */
  public Optional<Instant> raiseFloor(String table, Instant floor) throws SQLException {
    // greatest() ignores a null floor: the first recorded value wins over "none".
    String column = q(FLOOR);
    String sql =
        "UPDATE "
            + tables
            + " SET "
            + column
            + " = greatest("
            + column
            + ", ?)"
            + BY_NAME
            + " RETURNING "
            + column;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setObject(1, floor.atOffset(ZoneOffset.UTC));
      s.setString(2, table);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.ofNullable(instant(rs, 1)) : Optional.empty();
      }
    }
  }

  private static String seconds(String intervalColumn) {
    return "ceil(extract(epoch from " + q(intervalColumn) + "))::bigint";
  }

  private static String q(String column) {
    return SqlIdentifiers.quote(column);
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
