package org.meterstore.cold.snapshot;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.cold.scan.ColumnBatchReader;

/**
 * One snapshot of a cold table, chosen once by a {@link SnapshotSelector} and pinned by id: the
 * table's metadata is read when the view is made (see {@link
 * org.meterstore.cold.table.ColdTable#view}), so commits that land afterwards change neither what
 * it plans nor what it reads, and its {@link #watermark()} is the W of exactly the snapshot it
 * reads.
 *
 * <p>The view does not retain the snapshot: an expiry that removes it and deletes its files makes
 * later reads fail with a storage error, never with another snapshot's rows.
 *
 * <p>Thread-safe: planning and reading may run on several threads at once. Planning and opening a
 * read fail with {@link org.meterstore.api.MeterStoreException} {@code STORAGE} when the object
 * store cannot be read; iterating an opened iterable may throw Iceberg's unchecked exceptions (such
 * as {@code RuntimeIOException}), which callers treat as storage failures. Close every iterable
 * returned.
 */
public interface SnapshotView {

  /** The MeterStore table name. */
  String tableName();

  /** The selector this view was made from. */
  SnapshotSelector selector();

  /**
   * The pinned snapshot's id; empty when the table had no snapshot (possible only for {@link
   * SnapshotSelector#current()}), in which case every plan and read is empty.
   */
  OptionalLong snapshotId();

  /**
   * The watermark W of the pinned snapshot (UTC): readings with {@code from < W} are in it. Read
   * through the same parent walk as {@link org.meterstore.cold.table.ColdTable#watermarkAt}; the
   * epoch when the table had no snapshot. Never null.
   */
  Instant watermark();

  /**
   * {@link #watermark()}, checked against the committed watermark the hot tier recorded: the last W
   * a MeterStore commit landed with, below which the hot tier has already dropped its partitions.
   * Used wherever the view's W decides what the hot tier must hold (every read of the current
   * snapshot); a view of an older snapshot (an as-of read) is not checked against it.
   *
   * @param committed the hot tier's committed watermark, {@link Instant#EPOCH} when none was
   *     recorded
   * @return W, at or above {@code committed}
   * @throws org.meterstore.api.MeterStoreException {@code INVARIANT_VIOLATED} (not retryable) when
   *     W lies below {@code committed}: the table was rolled back behind MeterStore's last commit
   *     and the readings in between are in neither tier; the message names both instants, the
   *     snapshot, and the snapshot to roll forward to when one still exists
   */
  Instant watermarkNotBelow(Instant committed);

  /**
   * The schema a scan of the pinned snapshot reads with (the table's schema when the snapshot was
   * committed; the current schema when there is none). Field ids are stable across schemas.
   */
  Schema schema();

  /**
   * Plans the file scan tasks of the pinned snapshot that {@code filter} may match (partition
   * pruning and file statistics), without column statistics on the tasks' files.
   */
  CloseableIterable<FileScanTask> planFiles(Expression filter);

  /**
   * {@link #planFiles}, with the files' column statistics (lower and upper bounds, value counts)
   * loaded, for decisions made from statistics alone.
   */
  CloseableIterable<FileScanTask> planFilesWithColumnStats(Expression filter);

  /**
   * Reads the rows of the pinned snapshot that {@code filter} may match, as Iceberg generic records
   * holding {@code columns} (by name). The filter prunes files and row groups and is applied to
   * rows as Iceberg's generic reader does; callers re-check predicates that must hold exactly.
   *
   * @param filter the Iceberg filter, {@code Expressions.alwaysTrue()} for all rows
   * @param columns the column names to read, in any order
   */
  CloseableIterable<Record> readRecords(Expression filter, Collection<String> columns);

  /**
   * Opens one planned task's data file for columnar reading through the table's own {@code FileIO}:
   * {@code columns} (by name, in the order of the batches' vectors), the task's split, row groups
   * and pages skipped by the task's residual filter (the rows returned may still not match it:
   * callers filter rows). The file's footer and page indexes come from the store's footer cache.
   * The task's delete files are <em>not</em> applied: a caller reads a task with deletes through
   * {@link #readRecords} instead.
   *
   * @param task a task planned by this view
   * @param columns column names of {@link #schema()}
   * @param batchRows the largest batch, at least 1
   * @throws org.meterstore.api.MeterStoreException {@code STORAGE} when the file cannot be opened
   * @throws IllegalArgumentException for a task with delete files or an unknown column
   */
  ColumnBatchReader openBatches(FileScanTask task, List<String> columns, int batchRows);

  /**
   * Whether {@code task}'s data file declares the layout's sort order {@code (malo_id, from)}, so
   * that all rows of one {@code (malo_id, from)} are adjacent in it and those runs ascend. False
   * for a file written without a sort order (a foreign engine's compaction, say).
   */
  boolean sortedByLayout(FileScanTask task);

  /**
   * The data files of the pinned snapshot, in Iceberg's planning order (no particular order); empty
   * when the table had no snapshot.
   */
  List<ColdDataFile> dataFiles();
}
