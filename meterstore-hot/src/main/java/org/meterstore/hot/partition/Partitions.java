package org.meterstore.hot.partition;

import java.time.Instant;
import java.util.List;
import org.meterstore.api.table.TableDefinition;

/**
 * The partition lifecycle of the hot tables (DESIGN § 4).
 *
 * <p>A table's partitions lie on a UTC grid counted from the epoch, one per {@code archival_step};
 * a partition holds the readings with {@code lowerBound <= from < upperBound}. There is never a
 * DEFAULT partition. A partition is built as a standalone table, receives its indexes, its
 * exclusion constraints and a {@code CHECK} equal to its bound while invisible, and is then
 * attached (which takes only {@code SHARE UPDATE EXCLUSIVE} on the parent and so waits for no
 * reader or writer); the bound check is dropped again. All of that happens in one transaction.
 *
 * <p>Every DDL runs under {@code ddl_lock_timeout}: a statement that cannot get its lock in time
 * fails with {@link org.meterstore.api.ErrorKind#LOCK_TIMEOUT} (retryable) and leaves the catalog
 * as it was (except for {@link DetachMode#CONCURRENTLY}, see there). Implementations are
 * thread-safe; concurrent creators in any number of processes serialise on a transaction-scoped
 * advisory lock per table and re-check existence inside it, so each partition is created once.
 *
 * <p>Every method throws {@link org.meterstore.api.MeterStoreException}: {@code INVALID_INPUT} for
 * a table that was not created or a partition name that is not one of the table's, {@code
 * LOCK_TIMEOUT}, {@code STORAGE} for a failing database, {@code CONFIG} for missing privileges.
 */
public interface Partitions {
  /**
   * Creates the missing partitions covering {@code [fromInclusive, toExclusive)}: every grid window
   * that intersects the range.
   *
   * @return the partitions this call created, in bound order (empty when all existed)
   */
  List<PartitionInfo> ensure(TableDefinition table, Instant fromInclusive, Instant toExclusive);

  /**
   * Pre-creates the partitions covering {@code [floor(now), now + partition_headroom)}.
   *
   * @param now the caller's current instant
   * @return the partitions this call created, in bound order
   */
  List<PartitionInfo> ensureHeadroom(TableDefinition table, Instant now);

  /**
   * The table's partitions in bound order: attached ones (from the catalog's partition bounds),
   * half-detached ones, and detached ones (tables of the schema named like the table's partitions
   * that no parent holds; their upper bound derived from the archival step).
   */
  List<PartitionInfo> list(TableDefinition table);

  /**
   * Detaches one attached (or, in {@link DetachMode#CONCURRENTLY} mode, half-detached) partition.
   *
   * @param name the partition's name as listed
   * @return the partition as it now stands ({@link PartitionState#DETACHED})
   */
  PartitionInfo detach(TableDefinition table, String name, DetachMode mode);

  /**
   * Drops one detached partition and its rows for good ({@code DROP TABLE}).
   *
   * @return false when no such table exists (already dropped)
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when it is still attached
   */
  boolean drop(TableDefinition table, String name);

  /**
   * The number of rows with {@code from < boundary} in the table's attached partitions (read
   * through the parent, so detached partitions do not count).
   */
  long countRowsBelow(TableDefinition table, Instant boundary);
}
