package org.meterstore.hot.internal.partition;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;

/**
 * Reads a table's partitions from the catalog on the caller's connection. Attached bounds come from
 * {@code pg_class.relpartbound}, printed by {@code pg_get_expr} and cast back in the same session,
 * so the session's {@code DateStyle} and {@code TimeZone} cannot distort them.
 */
public final class PartitionCatalog {
  /**
   * Attached partitions (with their bounds) and detached ones (by name) in one statement: one
   * snapshot of the catalog, so a partition detached or attached meanwhile appears exactly once.
   * Two statements under READ COMMITTED could each see another state and list it twice.
   */
  private static final String PARTITIONS =
      "SELECT c.relname, i.inhdetachpending, b.m[1]::timestamptz, b.m[2]::timestamptz"
          + " FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,"
          + " LATERAL (SELECT regexp_match(pg_get_expr(c.relpartbound, c.oid),"
          + " 'FROM \\(''([^'']*)''\\) TO \\(''([^'']*)''\\)') AS m) b"
          + " WHERE i.inhparent = to_regclass(?)"
          + " UNION ALL"
          + " SELECT c.relname, NULL::boolean, NULL::timestamptz, NULL::timestamptz"
          + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " WHERE n.nspname = ? AND c.relkind = 'r' AND c.relname ~ ?"
          + " AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)";

  private final String schema;

  /** The catalog view of {@code schema}. */
  public PartitionCatalog(String schema) {
    this.schema = schema;
  }

  /**
   * Fails unless {@code table}'s parent exists.
   *
   * @throws MeterStoreException {@code CONFIG} naming the table and what to do (purged, or never
   *     created)
   */
  public void requireParent(Connection c, TableDefinition table) throws SQLException {
    if (!parentExists(c, table)) {
      throw MeterStoreException.tableMissing(
          table.name(), "the hot tier (" + SqlIdentifiers.qualified(schema, table.name()) + ")");
    }
  }

  /** Whether {@code table}'s parent exists. */
  public boolean parentExists(Connection c, TableDefinition table) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      s.setString(1, SqlIdentifiers.qualified(schema, table.name()));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  /** All of {@code table}'s partitions, attached or not, in bound order. */
  public List<PartitionInfo> list(Connection c, TableDefinition table) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(PARTITIONS)) {
      bindListing(s, 1, table);
      try (ResultSet rs = s.executeQuery()) {
        return readListing(rs, table);
      }
    }
  }

  /**
   * The statement listing a table's partitions, for a caller that sends it with others in one round
   * trip; its three parameters are bound by {@link #bindListing} and its rows read by {@link
   * #readListing}.
   */
  public static String listingSql() {
    return PARTITIONS;
  }

  /** Binds the listing's parameters for {@code table}, the first at {@code index}. */
  public void bindListing(PreparedStatement s, int index, TableDefinition table)
      throws SQLException {
    s.setString(index, SqlIdentifiers.qualified(schema, table.name()));
    s.setString(index + 1, schema);
    s.setString(index + 2, PartitionGrid.of(table).namePattern());
  }

  /** The partitions the listing's rows name, in bound order. */
  public static List<PartitionInfo> readListing(ResultSet rs, TableDefinition table)
      throws SQLException {
    PartitionGrid grid = PartitionGrid.of(table);
    List<PartitionInfo> partitions = new ArrayList<>();
    while (rs.next()) {
      String name = rs.getString(1);
      boolean detachPending = rs.getBoolean(2);
      if (!rs.wasNull()) {
        partitions.add(
            new PartitionInfo(
                table.name(),
                name,
                instant(rs, 3),
                instant(rs, 4),
                detachPending ? PartitionState.DETACH_PENDING : PartitionState.ATTACHED));
        continue;
      }
      grid.lowerBound(name)
          .ifPresent(
              lower ->
                  partitions.add(
                      new PartitionInfo(
                          table.name(), name, lower, grid.upper(lower), PartitionState.DETACHED)));
    }
    partitions.sort(Comparator.comparing(PartitionInfo::lowerBound));
    return partitions;
  }

  /** One of {@code table}'s partitions by name, if it exists in any state. */
  public Optional<PartitionInfo> find(Connection c, TableDefinition table, String name)
      throws SQLException {
    return list(c, table).stream().filter(p -> p.name().equals(name)).findFirst();
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }
}
