package org.meterstore.cold.internal.stamp;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The one walk from a snapshot back through its parents, used for everything that looks into a
 * table's history: W (the nearest ancestor carrying one), MeterStore's own commit time, the commit
 * of a call whose outcome was unknown, and the chain expiry must keep.
 *
 * <p>One policy for a missing parent, the one that never hides it: a parent id that no longer
 * resolves before the walk found what it looks for means the history it needs was expired (by a
 * tool that did not re-stamp first). The walk then throws {@code INVARIANT_VIOLATED} naming the
 * snapshot and the missing parent. It never stops there as if the history began at that point
 * (which would say "the epoch" for W, or "not landed" for a commit that may have landed). Callers
 * that only display history catch it and show the value as unknown.
 */
public final class SnapshotChain {
  private final LongFunction<Snapshot> lookup;
  private final String tableName;

  private SnapshotChain(LongFunction<Snapshot> lookup, String tableName) {
    this.lookup = lookup;
    this.tableName = tableName;
  }

  /** The chain of a loaded table. */
  public static SnapshotChain of(Table table, String tableName) {
    return new SnapshotChain(table::snapshot, tableName);
  }

  /** The chain of table metadata (as a catalog swap sees it). */
  public static SnapshotChain of(TableMetadata metadata, String tableName) {
    return new SnapshotChain(metadata::snapshot, tableName);
  }

  /**
   * Where a walk ended.
   *
   * @param visited the snapshots walked, starting with the first and ending with {@code found} (or
   *     the root when nothing matched); empty when the walk started at no snapshot
   * @param found the first snapshot that matched, or null when the walk reached the root
   */
  public record Walk(List<Long> visited, Snapshot found) {
    /** Copies the list. */
    public Walk {
      visited = List.copyOf(visited);
    }
  }

  /**
   * Walks from {@code start} (null: no snapshot, nothing visited) through its parents to the first
   * snapshot {@code match} accepts.
   *
   * @param purpose what the walk is for, in an error ("read the watermark")
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when a parent no longer exists before a
   *     snapshot matched
   */
  public Walk walk(Snapshot start, Predicate<Snapshot> match, String purpose) {
    List<Long> visited = new ArrayList<>();
    Snapshot s = start;
    while (s != null) {
      visited.add(s.snapshotId());
      if (match.test(s)) {
        return new Walk(visited, s);
      }
      Long parentId = s.parentId();
      if (parentId == null) {
        return new Walk(visited, null);
      }
      Snapshot parent = lookup.apply(parentId);
      if (parent == null) {
        throw missingParent(s, parentId, purpose);
      }
      s = parent;
    }
    return new Walk(visited, null);
  }

  /**
   * The snapshot among {@code start} and its ancestors newer than {@code since} that carries {@code
   * commitId}, or null. A call's commit can only have landed after the snapshot its first attempt
   * started from ({@code since}; null when the table had none), so the walk stops there.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when a parent no longer exists before
   *     {@code since} was reached: whether the commit landed cannot be known
   */
  public Snapshot findCommit(Snapshot start, String commitId, Long since) {
    Snapshot found =
        walk(
                start,
                s ->
                    CommitStamp.isCommit(s, commitId) || (since != null && s.snapshotId() == since),
                "find commit " + commitId)
            .found();
    return found != null && CommitStamp.isCommit(found, commitId) ? found : null;
  }

  private MeterStoreException missingParent(Snapshot s, long parentId, String purpose) {
    return new MeterStoreException(
        ErrorKind.INVARIANT_VIOLATED,
        "Cannot "
            + purpose
            + " of cold table "
            + tableName
            + ": snapshot "
            + s.snapshotId()
            + " does not hold the answer and its parent "
            + parentId
            + " no longer exists (expired by a tool that did not re-stamp W first); an operator"
            + " must restore W");
  }
}
