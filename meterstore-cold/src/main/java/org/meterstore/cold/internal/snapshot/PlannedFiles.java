package org.meterstore.cold.internal.snapshot;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * the cached files hold (least recently used snapshots go first); a snapshot larger than the bound
 * is planned and not kept. Shared by every query of one store. Thread-safe: two threads planning
 * the same snapshot at once may both read its manifests; one result is kept.
 */
public final class PlannedFiles {
  /** The default bound: 64 MiB, about 50,000 files with statistics on 20 columns. */
  public static final long DEFAULT_MAX_BYTES = 64L * 1024 * 1024;

  private static final long BYTES_PER_FILE = 600;
  private static final long BYTES_PER_BOUND = 48;

  private final long maxBytes;
  private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;

  /** A cache of at most about {@code maxBytes}; 0 keeps nothing. */
  public PlannedFiles(long maxBytes) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("Invalid maxBytes: " + maxBytes + " (at least 0)");
    }
    this.maxBytes = maxBytes;
  }

  private record Key(String table, long snapshotId) {}

  private record Entry(List<FileScanTask> tasks, long bytes) {}

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
    synchronized (this) {
      Entry cached = entries.get(key);
      if (cached != null) {
        return cached.tasks();
      }
    }
    List<FileScanTask> tasks = new ArrayList<>();
    long size = 0;
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().useSnapshot(snapshotId).includeColumnStats().planFiles()) {
      for (FileScanTask task : planned) {
        tasks.add(task);
        size += estimate(task);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    List<FileScanTask> kept = List.copyOf(tasks);
    keep(key, new Entry(kept, size));
    return kept;
  }

  private synchronized void keep(Key key, Entry entry) {
    if (entry.bytes() > maxBytes || entries.containsKey(key)) {
      return;
    }
    entries.put(key, entry);
    bytes += entry.bytes();
    var eldest = entries.entrySet().iterator();
    while (bytes > maxBytes && eldest.hasNext()) {
      bytes -= eldest.next().getValue().bytes();
      eldest.remove();
    }
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
