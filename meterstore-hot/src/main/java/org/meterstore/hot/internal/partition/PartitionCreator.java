package org.meterstore.hot.internal.partition;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.schema.ExclusionConstraint;
import org.meterstore.hot.internal.schema.TableRegistry;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.write.BelowFloorException;

/**
 * Creates one partition the way DESIGN § 4 prescribes, inside the caller's DDL transaction (which
 * carries {@code SET LOCAL lock_timeout}):
 *
 * <ol>
 *   <li>take the table's advisory lock, refuse a window below the table's floor and re-check that
 *       the window is still missing;
 *   <li>{@code CREATE TABLE … (LIKE parent INCLUDING ALL)}: a standalone table with the parent's
 *       columns, NOT NULLs, CHECKs and primary-key index, invisible to every other session;
 *   <li>add the GiST exclusion constraints and a {@code CHECK} equal to the window;
 *   <li>{@code ATTACH PARTITION}: {@code SHARE UPDATE EXCLUSIVE} on the parent, which conflicts
 *       with no read and no write; the bound check spares it a validation scan;
 *   <li>drop the bound check, so no row is checked against it twice.
 * </ol>
 *
 * <p>Only the attach can wait, and only for another DDL on the parent; if it times out the whole
 * transaction rolls back and the standalone table is gone with it.
 */
final class PartitionCreator {
  private final String schema;

  PartitionCreator(String schema) {
    this.schema = schema;
  }

  /**
   * Creates the window starting at {@code lower} unless it exists.
   *
   * @return the partition created, or empty when it was already attached
   * @throws BelowFloorException when {@code lower} lies below the table's recorded floor (read
   *     under the advisory lock, which {@link TableFloors#record} takes too), or the window's
   *     partition exists detached (it is being or was archived: writing there would resurrect
   *     archived readings)
   */
  Optional<PartitionInfo> createIfMissing(Connection c, TableDefinition table, Instant lower)
      throws SQLException {
    AdvisoryLocks.lockExclusive(
        c, AdvisoryLocks.PARTITION_DDL, AdvisoryLocks.key(schema, table.name()));
    PartitionCatalog catalog = new PartitionCatalog(schema);
    catalog.requireParent(c, table);
    PartitionGrid grid = PartitionGrid.of(table);
    String name = grid.name(lower);
    Optional<Instant> floor = new TableRegistry(c, schema).floor(table.name());
    if (floor.isPresent() && lower.isBefore(floor.get())) {
      throw BelowFloorException.windowBelowFloor(
          table.name(), floor.get(), name, lower, grid.upper(lower));
    }
    Optional<PartitionInfo> existing = catalog.find(c, table, name);
    if (existing.isPresent()) {
      if (existing.get().state() != PartitionState.ATTACHED) {
        throw BelowFloorException.partitionDetached(
            table.name(), name, existing.get().state().name(), lower, grid.upper(lower));
      }
      return Optional.empty();
    }
    try (Statement s = c.createStatement()) {
      for (String sql : statements(table, name, lower, grid.upper(lower))) {
        s.execute(sql);
      }
    }
    return Optional.of(
        new PartitionInfo(table.name(), name, lower, grid.upper(lower), PartitionState.ATTACHED));
  }

  private List<String> statements(
      TableDefinition table, String name, Instant lower, Instant upper) {
    String parent = SqlIdentifiers.qualified(schema, table.name());
    String partition = SqlIdentifiers.qualified(schema, name);
    String boundCheck = SqlIdentifiers.quote(name + "_bound");
    // Grid instants, not user values: DDL takes no bind parameters.
    String from = "'" + lower + "'";
    String to = "'" + upper + "'";
    List<String> sql = new ArrayList<>();
    sql.add("CREATE TABLE " + partition + " (LIKE " + parent + " INCLUDING ALL)");
    for (ExclusionConstraint constraint : ExclusionConstraint.of(table)) {
      sql.add(
          "ALTER TABLE "
              + partition
              + " ADD CONSTRAINT "
              + SqlIdentifiers.quote(constraint.physicalName(name))
              + " "
              + constraint.definition(table));
    }
    String quotedFrom = SqlIdentifiers.quote("from");
    sql.add(
        "ALTER TABLE "
            + partition
            + " ADD CONSTRAINT "
            + boundCheck
            + " CHECK ("
            + quotedFrom
            + " >= timestamptz "
            + from
            + " AND "
            + quotedFrom
            + " < timestamptz "
            + to
            + ")");
    sql.add(
        "ALTER TABLE "
            + parent
            + " ATTACH PARTITION "
            + partition
            + " FOR VALUES FROM ("
            + from
            + ") TO ("
            + to
            + ")");
    sql.add("ALTER TABLE " + partition + " DROP CONSTRAINT " + boundCheck);
    return sql;
  }
}
