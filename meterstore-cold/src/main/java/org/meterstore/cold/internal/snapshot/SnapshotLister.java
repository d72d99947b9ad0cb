package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.internal.stamp.SnapshotChain;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotOrder;

/**
 * Lists a table's snapshots in sequence-number order with the W each carries or inherits and
 * MeterStore's own commit time, both through the one parent walk ({@link SnapshotChain}). A listing
 * is what an operator reads to repair a broken history, so where the chain's policy says a parent
 * is missing (an ancestor expired before the value was found) it shows the value as unknown (null)
 * rather than failing.
 */
public final class SnapshotLister {
  private SnapshotLister() {}

  /** Every snapshot of {@code table}, oldest first. */
  public static List<SnapshotInfo> list(Table table, String tableName) {
    List<Snapshot> ordered = new ArrayList<>();
    table.snapshots().forEach(ordered::add);
    ordered =
        SnapshotOrder.bySequenceNumber(ordered, Snapshot::sequenceNumber, Snapshot::snapshotId);
    Map<Long, List<String>> tags = tagsBySnapshot(table);
    SnapshotChain chain = SnapshotChain.of(table, tableName);
    List<SnapshotInfo> infos = new ArrayList<>(ordered.size());
    for (Snapshot s : ordered) {
      Instant own = CommitStamp.ownWatermark(s, tableName);
      Instant w = own != null ? own : inherited(chain, s, tableName);
      infos.add(
          new SnapshotInfo(
              s.snapshotId(),
              s.sequenceNumber(),
              Instant.ofEpochMilli(s.timestampMillis()),
              stamp(chain, s),
              s.operation(),
              w,
              own != null,
              CommitStamp.operationName(s),
              CommitStamp.count(s, SnapshotSummary.ADDED_RECORDS_PROP),
              CommitStamp.count(s, SnapshotSummary.TOTAL_RECORDS_PROP),
              tags.getOrDefault(s.snapshotId(), List.of())));
    }
    return infos;
  }

  /** The W {@code s} inherits, or null when the chain is broken before it was found. */
  private static Instant inherited(SnapshotChain chain, Snapshot s, String tableName) {
    try {
      return WatermarkReader.walk(chain, s, tableName).watermark();
    } catch (MeterStoreException e) {
      return null;
    }
  }

  /**
   * MeterStore's own time of {@code s} or of its nearest ancestor that has one (a foreign commit
   * inherits it); null when none has one or the chain is broken before one was found.
   */
  public static Instant stamp(SnapshotChain chain, Snapshot s) {
    try {
      Snapshot found = chain.walk(s, p -> CommitStamp.archivedAt(p) != null, "list").found();
      return found == null ? null : CommitStamp.archivedAt(found);
    } catch (MeterStoreException e) {
      return null;
    }
  }

  /** Tag names by the snapshot they point at, each list sorted. */
  public static Map<Long, List<String>> tagsBySnapshot(Table table) {
    Map<Long, List<String>> tags = new HashMap<>();
    for (Map.Entry<String, SnapshotRef> e : new TreeMap<>(table.refs()).entrySet()) {
      if (e.getValue().isTag()) {
        tags.computeIfAbsent(e.getValue().snapshotId(), k -> new ArrayList<>()).add(e.getKey());
      }
    }
    return tags;
  }
}
