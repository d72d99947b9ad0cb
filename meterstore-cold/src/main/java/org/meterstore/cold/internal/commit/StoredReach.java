package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotChanges;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.InclusiveMetricsEvaluator;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.stamp.SnapshotChain;

/**
 * What the last full look at one table's metadata found for the windows imported at W: that no data
 * file of snapshot {@code snapshotId} could decide a batch whose earliest {@code from} is at or
 * after {@code min}. The next window's question is then answered from the data files added since
 * that snapshot alone, each judged by its column statistics; everything older was judged already,
 * and a file that cannot reach a batch starting at {@code min} cannot reach one starting later
 * (both conditions of {@link BatchClassification#storedCanDecide} only narrow as the batch's start
 * moves forward). Removed files and delete files only take rows away. When the snapshot seen is no
 * longer among the current one's recent ancestors (an expiry, a rollback), or a file added since
 * might reach the batch, the caller plans the whole table again.
 *
 * <p>Why: an import commits a window per chunk, and planning the whole table before each one read
 * every manifest again, some 30 ms per chunk of a month's import, on the thread the next chunk's
 * encoding waits for. One per cold table, kept as long as the table's handle; thread-safe.
 */
public final class StoredReach {
  /** Snapshots walked back at most before the whole table is planned instead. */
  static final int MAX_NEWER = 64;

  private record Seen(long snapshotId, Instant min) {}

  private final AtomicReference<Seen> seen = new AtomicReference<>();

  /**
   * False when the files added to {@code table} since the snapshot seen last cannot reach a batch
   * starting at {@code min} ({@code reaching}) and that snapshot's files could not reach one
   * starting at or before it; null when that cannot be told this way (plan the table).
   */
  Boolean reaches(Table table, Instant min, Expression reaching) {
    Seen last = seen.get();
    Snapshot current = table.currentSnapshot();
    if (last == null || current == null || min.isBefore(last.min())) {
      return null;
    }
    int[] walked = {0};
    SnapshotChain.Walk walk;
    try {
      walk =
          SnapshotChain.of(table, table.name())
              .walk(
                  current,
                  s -> s.snapshotId() == last.snapshotId() || ++walked[0] > MAX_NEWER,
                  "find the files added since the last import window");
    } catch (MeterStoreException e) {
      return null; // a parent expired: the whole plan decides
    }
    if (walk.found() == null || walk.found().snapshotId() != last.snapshotId()) {
      return null;
    }
    List<Long> visited = walk.visited();
    List<Snapshot> newer = new ArrayList<>();
    for (Long id : visited.subList(0, visited.size() - 1)) {
      newer.add(table.snapshot(id));
    }
    InclusiveMetricsEvaluator metrics =
        new InclusiveMetricsEvaluator(table.schema(), reaching, true);
    for (Snapshot added : newer) {
      for (DataFile file :
          SnapshotChanges.builderFor(table).snapshot(added).build().addedDataFiles()) {
        if (metrics.eval(file)) {
          return null;
        }
      }
    }
    seen.set(new Seen(current.snapshotId(), min));
    return Boolean.FALSE;
  }

  /**
   * Records that a full plan of {@code table}'s current snapshot found nothing reaching {@code
   * min}.
   */
  void nothingReaches(Table table, Instant min) {
    Snapshot current = table.currentSnapshot();
    if (current != null) {
      seen.set(new Seen(current.snapshotId(), min));
    }
  }
}
