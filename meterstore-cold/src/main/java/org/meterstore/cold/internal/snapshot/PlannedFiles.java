package org.meterstore.cold.internal.snapshot;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.apache.iceberg.expressions.Projections;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.internal.catalog.ManifestWork;

/**
 * The data files of snapshots, planned once per snapshot and kept: a snapshot never changes, so the
 * files it references (with their column statistics and delete files) are read from its manifests
 * the first time a query plans it and never again while they stay cached. Each plan filters the
 * cached files as Iceberg's own planning would — the partition filter projected inclusively onto
 * each spec, then the column statistics ({@link InclusiveMetricsEvaluator}) — and gives each task
 * the residual of its partition ({@link ResidualEvaluator}).
 *
 * <p>Why: a query of one location's month planned the snapshot anew on every execution, reading the
 * manifests again (about a sixth of a short cold query's time). Bounded by an estimate of the bytes
 * the cached files hold ({@code ColdConfig.plannedFilesCacheBytes}, {@code [cold]
 * planned_files_cache}): when it is exceeded, the oldest snapshot leaves unless it was planned
 * again since eviction last passed it (second chance); a snapshot larger than the bound is planned
 * and not kept. Shared by every query of one store. Thread-safe, and a hit takes no lock; two
 * threads planning the same snapshot at once may both read its manifests; one result is kept.
 */
public final class PlannedFiles {
  /** The default bound ({@link ColdConfig#DEFAULT_PLANNED_FILES_CACHE_BYTES}). */
  public static final long DEFAULT_MAX_BYTES = ColdConfig.DEFAULT_PLANNED_FILES_CACHE_BYTES;

  private static final long BYTES_PER_FILE = 600;
  private static final long BYTES_PER_BOUND = 48;

  private final long maxBytes;
  private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
  private final ArrayDeque<Entry> clock = new ArrayDeque<>(); // guarded by this
  private long bytes; // guarded by this

  /** A cache of at most about {@code maxBytes}; 0 keeps nothing. */
  public PlannedFiles(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("Invalid maxBytes: " + maxBytes + " (at least 0)");
    }
    this.maxBytes = maxBytes;
  }

  private record Key(String table, long snapshotId) {}

  private static final class Entry {
    private final Key key;
    private final List<FileScanTask> tasks;
    private final long bytes;
    private volatile boolean used;

    Entry(Key key, List<FileScanTask> tasks, long bytes) {
      this.key = key;
      this.tasks = tasks;
      this.bytes = bytes;
    }
  }

  /**
   * The tasks of {@code snapshotId} of {@code table} that {@code filter} may match, each with its
   * residual, read with {@code schema} (the snapshot's).
   */
  public CloseableIterable<FileScanTask> plan(
      Table table, long snapshotId, Schema schema, Expression filter) {
    List<FileScanTask> all = all(table, snapshotId);
    if (filter.equals(Expressions.alwaysTrue())) {
      return CloseableIterable.withNoopClose(all);
    }
    InclusiveMetricsEvaluator metrics = new InclusiveMetricsEvaluator(schema, filter, true);
    Map<Integer, Evaluator> partitions = new HashMap<>();
    Map<Integer, ResidualEvaluator> residuals = new HashMap<>();
    List<FileScanTask> out = new ArrayList<>();
    for (FileScanTask task : all) {
      PartitionSpec spec = task.spec();
      Evaluator partition =
          partitions.computeIfAbsent(
              spec.specId(),
              id ->
                  new Evaluator(
                      spec.partitionType(),
                      Projections.inclusive(spec, true).project(filter),
                      true));
      if (!partition.eval(task.file().partition()) || !metrics.eval(task.file())) {
        continue;
      }
      ResidualEvaluator residual =
          residuals.computeIfAbsent(spec.specId(), id -> ResidualEvaluator.of(spec, filter, true));
      out.add(new ResidualTask(task, residual.residualFor(task.file().partition())));
    }
    return CloseableIterable.withNoopClose(out);
  }

  private List<FileScanTask> all(Table table, long snapshotId) {
    Key key = new Key(table.location(), snapshotId);
    Entry cached = entries.get(key);
    if (cached != null) {
      if (!cached.used) {
        cached.used = true;
      }
      return cached.tasks;
    }
    List<FileScanTask> tasks = new ArrayList<>();
    long size = 0;
    try (CloseableIterable<FileScanTask> planned =
        ManifestWork.plan(
                table.newScan().useSnapshot(snapshotId).includeColumnStats(),
                table,
                table.snapshot(snapshotId))
            .planFiles()) {
      for (FileScanTask task : planned) {
        tasks.add(task);
        size += estimate(task);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    List<FileScanTask> kept = List.copyOf(tasks);
    keep(new Entry(key, kept, size));
    return kept;
  }

  private synchronized void keep(Entry entry) {
    if (entry.bytes > maxBytes || entries.containsKey(entry.key)) {
      return;
    }
    entries.put(entry.key, entry);
    clock.addLast(entry);
    bytes += entry.bytes;
    int chances = 2 * clock.size();
    while (bytes > maxBytes && !clock.isEmpty()) {
      Entry oldest = clock.pollFirst();
      if (chances-- > 0 && oldest.used) {
        oldest.used = false;
        clock.addLast(oldest);
        continue;
      }
      entries.remove(oldest.key, oldest);
      bytes -= oldest.bytes;
    }
  }

  /** The snapshots whose files are kept. */
  public int size() {
    return entries.size();
  }

  /** The bytes the cache holds now, by its estimate. */
  public synchronized long estimatedBytes() {
    return bytes;
  }

  /** A rough size of one task's file with its statistics and delete files. */
  private static long estimate(FileScanTask task) {
    long size = BYTES_PER_FILE + task.file().location().length() * 2L;
    size += bounds(task.file().lowerBounds()) + bounds(task.file().upperBounds());
    Map<Integer, Long> counts = task.file().valueCounts();
    size += counts == null ? 0 : counts.size() * BYTES_PER_BOUND * 3;
    for (DeleteFile d : task.deletes()) {
      size += BYTES_PER_FILE + d.location().length() * 2L;
    }
    return size;
  }

  private static long bounds(Map<Integer, ByteBuffer> bounds) {
    if (bounds == null) {
      return 0;
    }
    long size = 0;
    for (ByteBuffer b : bounds.values()) {
      size += BYTES_PER_BOUND + b.remaining();
    }
    return size;
  }

  /** A cached task with the residual of one plan's filter. */
  private static final class ResidualTask implements FileScanTask {
    private static final long serialVersionUID = 1L;
    private final FileScanTask task;
    private final Expression residual;

    ResidualTask(FileScanTask task, Expression residual) {
      this.task = task;
      this.residual = residual;
    }

    @Override
    public DataFile file() {
      return task.file();
    }

    @Override
    public List<DeleteFile> deletes() {
      return task.deletes();
    }

    @Override
    public PartitionSpec spec() {
      return task.spec();
    }

    @Override
    public org.apache.iceberg.StructLike partition() {
      return task.partition();
    }

    @Override
    public long start() {
      return task.start();
    }

    @Override
    public long length() {
      return task.length();
    }

    @Override
    public Expression residual() {
      return residual;
    }

    @Override
    public Schema schema() {
      return task.schema();
    }

    @Override
    public long sizeBytes() {
      return task.sizeBytes();
    }

    @Override
    public long estimatedRowsCount() {
      return task.estimatedRowsCount();
    }

    @Override
    public Iterable<FileScanTask> split(long targetSplitSize) {
      List<FileScanTask> splits = new ArrayList<>();
      task.split(targetSplitSize).forEach(s -> splits.add(new ResidualTask(s, residual)));
      return splits;
    }
  }
}
