package org.meterstore.hot.internal.partition;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.Partitions;
import org.meterstore.hot.write.BelowFloorException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Partitions} of one store. Creation runs one DDL transaction per missing window (see
 * {@link PartitionCreator}); windows this store has seen attached are remembered in {@link
 * KnownPartitions}, so a steady writer asks the catalog only when it reaches a new window.
 * Thread-safe.
 */
public final class PartitionManager implements Partitions {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionManager.class);

  private final Database db;
  private final KnownPartitions known = new KnownPartitions();
  private final PartitionCreator creator;
  private final PartitionCatalog catalog;
  private final PartitionDetacher detacher;
  private final TableFloors floors;

  /** The partitions of the tables in {@code db}'s schema. */
  public PartitionManager(Database db) {
    this.db = db;
    this.creator = new PartitionCreator(db.schema());
    this.catalog = new PartitionCatalog(db.schema());
    this.detacher = new PartitionDetacher(db, catalog);
    this.floors = new TableFloors(db, catalog);
  }

  @Override
  public List<PartitionInfo> ensure(
      TableDefinition table, Instant fromInclusive, Instant toExclusive) {
    return ensureWindows(table, PartitionGrid.of(table).lowerBounds(fromInclusive, toExclusive));
  }

  @Override
  public List<PartitionInfo> ensureHeadroom(TableDefinition table, Instant now) {
    PartitionGrid grid = PartitionGrid.of(table);
    Instant end = now.plus(table.policy().partitionHeadroom());
    Instant start = grid.floor(now);
    Instant floor = floors.read(table);
    if (start.isBefore(floor)) {
      start = grid.ceiling(floor);
    }
    return start.isBefore(end) ? create(table, grid.lowerBounds(start, end), true) : List.of();
  }

  @Override
  public Instant recordFloor(TableDefinition table, Instant floor) {
    return floors.record(table, floor);
  }

  @Override
  public Instant recordCommittedWatermark(TableDefinition table, Instant w) {
    return floors.recordCommitted(table, w);
  }

  @Override
  public Instant floor(TableDefinition table) {
    return floors.read(table);
  }

  @Override
  public Instant committedWatermark(TableDefinition table) {
    return floors.committed(table);
  }

  /** The floor recorded for {@code table}, if any (one short read transaction). */
  public Optional<Instant> recordedFloor(TableDefinition table) {
    return floors.recorded(table);
  }

  /** Whether this store has seen every window starting at {@code lowerBounds} attached. */
  public boolean allKnown(TableDefinition table, Collection<Instant> lowerBounds) {
    return lowerBounds.stream().allMatch(lower -> known.contains(table.name(), lower));
  }

  /**
   * Makes sure the windows starting at {@code lowerBounds} are attached, creating the missing ones,
   * lowest first: when one is refused, no higher one of the call has been created.
   *
   * @return the partitions created, in bound order
   * @throws BelowFloorException for a window below the table's floor or one whose partition is
   *     detached
   */
  public List<PartitionInfo> ensureWindows(TableDefinition table, Collection<Instant> lowerBounds) {
    return create(table, lowerBounds, false);
  }

  /** {@link #ensureWindows}, skipping windows below the floor when {@code skipBelowFloor}. */
  private List<PartitionInfo> create(
      TableDefinition table, Collection<Instant> lowerBounds, boolean skipBelowFloor) {
    List<PartitionInfo> created = new ArrayList<>();
    for (Instant lower : new TreeSet<>(lowerBounds)) {
      if (known.contains(table.name(), lower)) {
        continue;
      }
      String name = PartitionGrid.of(table).name(lower);
      Optional<PartitionInfo> made;
      try {
        made =
            db.ddl(
                () -> "create partition " + name + " of table " + table.name(),
                c -> creator.createIfMissing(c, table, lower));
      } catch (BelowFloorException e) {
        if (skipBelowFloor && e.reason() == BelowFloorException.Reason.BELOW_FLOOR) {
          continue; // the floor rose after ensureHeadroom read it
        }
        throw e;
      }
      made.ifPresent(
          p -> {
            created.add(p);
            LOG.info(
                "Attached partition {}.{} [{}, {})",
                db.schema(),
                p.name(),
                p.lowerBound(),
                p.upperBound());
          });
      known.add(table.name(), lower);
    }
    return created;
  }

  /** Forgets what this store knew about {@code table}'s windows (after "no partition" errors). */
  public void forget(TableDefinition table) {
    known.forgetTable(table.name());
  }

  @Override
  public List<PartitionInfo> list(TableDefinition table) {
    return db.transaction(
        () -> "list the partitions of table " + table.name(),
        c -> {
          catalog.requireParent(c, table);
          return catalog.list(c, table);
        });
  }

  @Override
  public boolean tableExists(TableDefinition table) {
    return db.transaction(
        () -> "look up table " + table.name(), c -> catalog.parentExists(c, table));
  }

  @Override
  public PartitionInfo detach(TableDefinition table, String name, DetachMode mode) {
    Instant lower = requireOwnName(table, name);
    known.forget(table.name(), lower);
    return detacher.detach(table, name, mode);
  }

  @Override
  public boolean drop(TableDefinition table, String name) {
    Instant lower = requireOwnName(table, name);
    known.forget(table.name(), lower);
    return detacher.drop(table, name);
  }

  @Override
  public Instant windowStart(TableDefinition table, Instant instant) {
    return PartitionGrid.of(table).floor(instant);
  }

  @Override
  public long countRowsBelow(TableDefinition table, Instant boundary) {
    String sql =
        "SELECT count(*) FROM "
            + db.qualified(table.name())
            + " WHERE "
            + SqlIdentifiers.quote("from")
            + " < ?";
    return db.transaction(
        () -> "count the rows of table " + table.name() + " below " + boundary,
        c -> {
          catalog.requireParent(c, table);
          try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, boundary.atOffset(ZoneOffset.UTC));
            try (ResultSet rs = s.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }

  private static Instant requireOwnName(TableDefinition table, String name) {
    return PartitionGrid.of(table)
        .lowerBound(name == null ? "" : name)
        .orElseThrow(
            () ->
                MeterStoreException.invalid(
                    "partition",
                    name,
                    "table "
                        + table.name()
                        + "'s partitions are named "
                        + table.name()
                        + "_YYYY_MM_DD_HHMM on its archival_step grid"));
  }
}
