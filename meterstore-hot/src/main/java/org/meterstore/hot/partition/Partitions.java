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
 * <p>Each table has a <b>floor</b>: the archiver records the table's committed watermark {@code W}
 * with {@link #recordCommittedWatermark} after every archival commit and before every reclamation,
 * and a history import raises it with {@link #recordFloor} before it commits a range. No partition
 * whose window starts below the floor is created, and {@code HotStore.write} stores no reading with
 * {@code from} below it, whoever writes: such a row would be invisible to every query, which reads
 * {@code from < W} from the cold tier. Those refusals are {@link
 * org.meterstore.hot.write.BelowFloorException}s.
 *
 * <p>Every method throws {@link org.meterstore.api.MeterStoreException}: {@code INVALID_INPUT} for
 * a table that was not created or a partition name that is not one of the table's, {@code
 * LOCK_TIMEOUT}, {@code STORAGE} for a failing database, {@code CONFIG} for missing privileges.
 */
public interface Partitions {
  /**
   * Creates the missing partitions covering {@code [fromInclusive, toExclusive)}: every grid window
   * that intersects the range, lowest first.
   *
   * @return the partitions this call created, in bound order (empty when all existed)
   * @throws org.meterstore.hot.write.BelowFloorException for the first window that starts below the
   *     table's floor, or whose partition exists detached; missing windows below that one have been
   *     created, none above it
   */
  List<PartitionInfo> ensure(TableDefinition table, Instant fromInclusive, Instant toExclusive);

  /**
   * Pre-creates the partitions covering {@code [floor(now), now + partition_headroom)}, where
   * {@code floor(now)} is the start of the window holding {@code now}. Windows below the table's
   * floor are left out, without an error: when {@code now} lies below the floor, headroom starts at
   * the first window at or above it (and nothing is created when that lies beyond the headroom).
   *
   * @param now the caller's current instant
   * @return the partitions this call created, in bound order
   * @throws org.meterstore.hot.write.BelowFloorException when a window of the headroom has a
   *     detached partition
   */
  List<PartitionInfo> ensureHeadroom(TableDefinition table, Instant now);

  /**
   * The table's partitions in bound order: attached ones (from the catalog's partition bounds),
   * half-detached ones, and detached ones (tables of the schema named like the table's partitions
   * that no parent holds; their upper bound derived from the archival step).
   */
  List<PartitionInfo> list(TableDefinition table);

  /**
   * Whether {@code table}'s partitioned parent exists in this store's schema: false before {@code
   * createTables} and after a purge. Every other method here refuses such a table with {@code
   * CONFIG}, saying to remove it from the configuration or create it.
   */
  boolean tableExists(TableDefinition table);

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
   * Raises the table's floor to {@code floor}, monotonically: a value at or below the recorded
   * floor leaves it unchanged. One short transaction under {@code ddl_lock_timeout} that takes the
   * table's partition-creation advisory lock (so it waits for a partition creator in flight, and
   * creators after it see the new floor) and updates the table's registry row, which every write
   * holds {@code FOR SHARE} until it commits (so it waits for writes in flight, and writes after it
   * see the new floor). When this returns, no partition below the floor can be created and no row
   * below it stored. Any instant is accepted; the archiver passes the committed watermark, which
   * lies on the table's partition grid.
   *
   * @param floor the new floor, an instant (UTC): readings with {@code from < floor} are refused
   * @return the floor now in force: the greater of {@code floor} and the one recorded before
   * @throws org.meterstore.api.MeterStoreException {@code LOCK_TIMEOUT} (retryable, nothing
   *     changed) when a partition creator or a write held the table longer than {@code
   *     ddl_lock_timeout}; {@code INVALID_INPUT} for a null floor or a table not created
   */
  Instant recordFloor(TableDefinition table, Instant floor);

  /**
   * Records {@code w}, the W a cold commit landed with, as the table's <b>committed watermark</b>
   * and raises the floor to it, under the same locking as {@link #recordFloor}; neither value is
   * ever lowered. A cold W below the committed watermark means the cold table was rolled back
   * behind MeterStore's last commit: the readings between them are in neither tier.
   *
   * @return the floor now in force
   * @throws org.meterstore.api.MeterStoreException as {@link #recordFloor}
   */
  Instant recordCommittedWatermark(TableDefinition table, Instant w);

  /**
   * The table's recorded committed watermark (UTC), {@link Instant#EPOCH} when none was recorded.
   * It never exceeds the floor, which a history import raises ahead of it before committing.
   */
  Instant committedWatermark(TableDefinition table);

  /**
   * The table's recorded floor (UTC), {@link Instant#EPOCH} when none was recorded. Read without
   * locking: a concurrent {@link #recordFloor} may raise it the moment after.
   */
  Instant floor(TableDefinition table);

  /**
   * The lower bound (UTC) of the partition window that holds {@code instant} on {@code table}'s
   * grid ({@code epoch + k * archival_step}). Pure: reads nothing.
   */
  Instant windowStart(TableDefinition table, Instant instant);

  /**
   * The number of rows with {@code from < boundary} in the table's attached partitions (read
   * through the parent, so detached partitions do not count).
   */
  long countRowsBelow(TableDefinition table, Instant boundary);
}
