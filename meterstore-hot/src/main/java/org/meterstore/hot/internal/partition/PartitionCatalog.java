package org.meterstore.hot.internal.partition;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;

/**
 * Reads a table's partitions from the catalog on the caller's connection. Attached bounds come from
 * {@code pg_class.relpartbound}, printed by {@code pg_get_expr} and cast back in the same session,
 * so the session's {@code DateStyle} and {@code TimeZone} cannot distort them. Printing them costs
 * about 35 µs per partition, most of a point query's PostgreSQL time, so each catalog keeps the
 * bounds it read by the partition's catalog row version (its {@code oid} and {@code xmin}, which
 * every attach, detach or other change of the row replaces) and the listing prints only the bounds
 * of rows it has not seen.
 */
public final class PartitionCatalog {
  /**
   * Attached partitions (with their bounds, unless the first parameter lists their row version) and
   * detached ones (by name, found through the index on {@code pg_class.relname} within the table's
   * name prefix) in one statement: one snapshot of the catalog, so a partition detached or attached
   * meanwhile appears exactly once. Two statements under READ COMMITTED could each see another
   * state and list it twice.
   */
  private static final String PARTITIONS =
      "SELECT c.relname, i.inhdetachpending, c.oid::bigint || ':' || c.xmin::text,"
          + " b.m[1]::timestamptz, b.m[2]::timestamptz"
          + " FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,"
          + " LATERAL (SELECT CASE WHEN c.oid::bigint || ':' || c.xmin::text = ANY(?::text[])"
          + " THEN NULL ELSE regexp_match(pg_get_expr(c.relpartbound, c.oid),"
          + " 'FROM \\(''([^'']*)''\\) TO \\(''([^'']*)''\\)') END AS m) b"
          + " WHERE i.inhparent = to_regclass(?)"
          + " UNION ALL"
          + " SELECT c.relname, NULL::boolean, NULL::text, NULL::timestamptz, NULL::timestamptz"
          + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " WHERE n.nspname = ? AND c.relname >= ?::name AND c.relname < ?::name"
          + " AND c.relkind = 'r' AND c.relname ~ ?"
          + " AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)";

  /** The parameters of {@link #listingSql()}. */
  public static final int LISTING_PARAMETERS = 6;

  /** Bounds read, by table and then by partition row version ({@code oid:xmin}). */
  private final ConcurrentHashMap<String, Map<String, Instant[]>> bounds =
      new ConcurrentHashMap<>();

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
    Listing listing = listing(table);
    try (PreparedStatement s = c.prepareStatement(PARTITIONS)) {
      listing.bind(s, 1);
      try (ResultSet rs = s.executeQuery()) {
        return listing.read(rs);
      }
    }
  }

  /**
   * The statement listing a table's partitions, for a caller that sends it with others in one round
   * trip; its {@value #LISTING_PARAMETERS} parameters are bound and its rows read by a {@link
   * #listing}.
   */
  public static String listingSql() {
    return PARTITIONS;
  }

  /** A listing of {@code table}'s partitions, to bind and read once. */
  public Listing listing(TableDefinition table) {
    return new Listing(table, bounds.getOrDefault(table.name(), Map.of()));
  }

  /**
   * One listing of a table's partitions: binds {@link #listingSql()}'s parameters with the row
   * versions whose bounds the catalog holds, then reads the rows, taking those bounds from what it
   * bound, and keeps the bounds of the partitions listed for the next listing.
   */
  public final class Listing {
    private final TableDefinition table;
    private final Map<String, Instant[]> known;

    private Listing(TableDefinition table, Map<String, Instant[]> known) {
      this.table = table;
      this.known = known;
    }

    /** Binds the {@value #LISTING_PARAMETERS} parameters, the first at {@code index}. */
    public void bind(PreparedStatement s, int index) throws SQLException {
      s.setArray(index, s.getConnection().createArrayOf("text", known.keySet().toArray()));
      s.setString(index + 1, SqlIdentifiers.qualified(schema, table.name()));
      s.setString(index + 2, schema);
      // the names of the table's partitions sort between its prefix and the prefix's successor
      s.setString(index + 3, table.name() + "_");
      s.setString(index + 4, table.name() + "`");
      s.setString(index + 5, PartitionGrid.of(table).namePattern());
    }

    /** The partitions the listing's rows name, in bound order. */
    public List<PartitionInfo> read(ResultSet rs) throws SQLException {
      PartitionGrid grid = PartitionGrid.of(table);
      List<PartitionInfo> partitions = new ArrayList<>();
      Map<String, Instant[]> seen = new HashMap<>();
      while (rs.next()) {
        String name = rs.getString(1);
        boolean detachPending = rs.getBoolean(2);
        if (!rs.wasNull()) {
          String version = rs.getString(3);
          Instant[] range = {instant(rs, 4), instant(rs, 5)};
          if (range[0] == null) {
            range = known.get(version);
            if (range == null) {
              throw new IllegalStateException(
                  "Partition " + name + " (row " + version + ") was listed without its bounds");
            }
          }
          seen.put(version, range);
          partitions.add(
              new PartitionInfo(
                  table.name(),
                  name,
                  range[0],
                  range[1],
                  detachPending ? PartitionState.DETACH_PENDING : PartitionState.ATTACHED));
          continue;
        }
        grid.lowerBound(name)
            .ifPresent(
                lower ->
                    partitions.add(
                        new PartitionInfo(
                            table.name(),
                            name,
                            lower,
                            grid.upper(lower),
                            PartitionState.DETACHED)));
      }
      bounds.put(table.name(), Map.copyOf(seen));
      partitions.sort(Comparator.comparing(PartitionInfo::lowerBound));
      return partitions;
    }
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
