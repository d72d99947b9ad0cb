package org.meterstore.cold.internal.watermark;

import java.time.Instant;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.stamp.SnapshotChain;

/**
 * Reads W (DESIGN § 5), behind {@code ColdTable.watermark()}, {@code watermarkAt(long)}, every
 * snapshot view, the commit protocol and expiry's protection of the chain. A snapshot without W of
 * its own (a foreign commit) inherits W from its nearest ancestor that has one ({@link
 * SnapshotChain}); a history that never had one means the epoch. A parent that no longer resolves
 * before W was found means W is unknown, and saying the epoch would route every archived reading
 * back to the hot tier: the chain's policy makes it an invariant violation instead.
 */
public final class WatermarkReader {
  private WatermarkReader() {}

  /** W of the table's current snapshot (the epoch for a table without snapshots). */
  public static Instant read(Table table, String tableName) {
    return resolve(table, table.currentSnapshot(), tableName);
  }

  /** W as seen from {@code snapshot} (the epoch when it is null). */
  public static Instant resolve(Table table, Snapshot snapshot, String tableName) {
    return walk(SnapshotChain.of(table, tableName), snapshot, tableName).watermark();
  }

  /**
   * The walk from a snapshot back through its parents to the nearest one carrying W.
   *
   * @param visited the snapshots walked, starting with the given one and ending with the carrier
   *     (or the root when none carries W); empty when there was no snapshot
   * @param watermark the W found, or the epoch when no ancestor carries one
   */
  public record Walk(List<Long> visited, Instant watermark) {
    /** Copies the list. */
    public Walk {
      visited = List.copyOf(visited);
    }
  }

  /**
   * Walks from {@code snapshot} (null: no snapshot, the epoch) to the nearest ancestor carrying W.
   *
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when a parent no longer exists before W
   *     was found, or a snapshot carries an unreadable W
   */
  public static Walk walk(SnapshotChain chain, Snapshot snapshot, String tableName) {
    SnapshotChain.Walk walk =
        chain.walk(
            snapshot, s -> CommitStamp.ownWatermark(s, tableName) != null, "read the watermark");
    Instant w =
        walk.found() == null ? Instant.EPOCH : CommitStamp.ownWatermark(walk.found(), tableName);
    return new Walk(walk.visited(), w);
  }

  /** As {@link #walk(SnapshotChain, Snapshot, String)} in a loaded table. */
  public static Walk walk(Table table, Snapshot snapshot, String tableName) {
    return walk(SnapshotChain.of(table, tableName), snapshot, tableName);
  }
}
