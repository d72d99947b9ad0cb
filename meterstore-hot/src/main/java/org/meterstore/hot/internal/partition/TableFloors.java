package org.meterstore.hot.internal.partition;

import java.time.Instant;
import java.util.Optional;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.internal.schema.TableRegistry;
import org.meterstore.hot.internal.sql.AdvisoryLocks;
import org.meterstore.hot.internal.sql.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each table's floor (DESIGN § 4), kept in its registry row. Raising it takes the advisory lock
 * that serialises the table's partition creators ({@link PartitionCreator} reads the floor under
 * it), so no partition below a raised floor can be created after the raise commits; and it updates
 * the registry row, which every write holds {@code FOR SHARE}, so the raise waits for writes in
 * flight and later writes see it. Nothing is cached (a table purged and created again starts
 * without a floor): the floor is read where it decides something. Thread-safe.
 */
final class TableFloors {
  private static final Logger LOG = LoggerFactory.getLogger(TableFloors.class);

  private final Database db;
  private final PartitionCatalog catalog;

  TableFloors(Database db, PartitionCatalog catalog) {
    this.db = db;
    this.catalog = catalog;
  }

  /**
   * Raises the floor of {@code table} to {@code floor} (never lowers it); returns the one in force.
   */
  Instant record(TableDefinition table, Instant floor) {
    return raise(table, floor, false);
  }

  /**
   * Records {@code w} as the table's committed watermark and raises the floor to it (neither is
   * lowered); returns the floor in force.
   */
  Instant recordCommitted(TableDefinition table, Instant w) {
    return raise(table, w, true);
  }

  private Instant raise(TableDefinition table, Instant floor, boolean committed) {
    if (floor == null) {
      throw MeterStoreException.invalid("floor", null, "required: the table's committed watermark");
    }
    return db.ddl(
        () -> "record floor " + floor + " of table " + table.name(),
        c -> {
          AdvisoryLocks.lockExclusive(
              c, AdvisoryLocks.PARTITION_DDL, AdvisoryLocks.key(db.schema(), table.name()));
          catalog.requireParent(c, table);
          TableRegistry registry = new TableRegistry(c, db.schema());
          Instant before = registry.floor(table.name()).orElse(null);
          Instant now =
              (committed
                      ? registry.raiseCommitted(table.name(), floor)
                      : registry.raiseFloor(table.name(), floor))
                  .orElseThrow(() -> notRegistered(table));
          if (!now.equals(before)) {
            LOG.info("Raised the floor of table {}.{} to {}", db.schema(), table.name(), now);
          }
          return now;
        });
  }

  /**
   * The committed watermark of {@code table}, {@link Instant#EPOCH} when none was recorded (or the
   * table is not registered). One statement: every query of the current state reads it.
   */
  Instant committed(TableDefinition table) {
    return db.autocommit(
            () -> "read the committed watermark of table " + table.name(),
            c -> new TableRegistry(c, db.schema()).committedWatermark(table.name()))
        .orElse(Instant.EPOCH);
  }

  /** The floor of {@code table}, {@link Instant#EPOCH} when none was recorded. */
  Instant read(TableDefinition table) {
    return recorded(table).orElse(Instant.EPOCH);
  }

  /** The floor recorded for {@code table}, if any. */
  Optional<Instant> recorded(TableDefinition table) {
    return db.transaction(
        () -> "read the floor of table " + table.name(),
        c -> {
          catalog.requireParent(c, table);
          return new TableRegistry(c, db.schema()).floor(table.name());
        });
  }

  private MeterStoreException notRegistered(TableDefinition table) {
    return MeterStoreException.tableMissing(
        table.name(), "the hot tier's registry (schema " + db.schema() + ")");
  }
}
