package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotOrder;

/**
 * Lists a table's snapshots in sequence-number order with the W each carries or inherits. W is
 * resolved in commit order so each snapshot looks only at its parent: a parent earlier in the list,
 * the epoch for a root, or unknown (null) when the parent was expired.
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
    Map<Long, Instant> watermarks = new HashMap<>();
    Map<Long, Instant> stamps = new HashMap<>();
    List<SnapshotInfo> infos = new ArrayList<>(ordered.size());
    for (Snapshot s : ordered) {
      Instant own = WatermarkReader.own(s, tableName);
      Instant w = own;
      if (w == null) {
        w = s.parentId() == null ? Instant.EPOCH : watermarks.get(s.parentId());
      }
      watermarks.put(s.snapshotId(), w);
      Map<String, String> summary = s.summary();
      Instant stamped = stamp(summary);
      if (stamped == null && s.parentId() != null) {
        stamped = stamps.get(s.parentId());
      }
      stamps.put(s.snapshotId(), stamped);
      infos.add(
          new SnapshotInfo(
              s.snapshotId(),
              s.sequenceNumber(),
              Instant.ofEpochMilli(s.timestampMillis()),
              stamped,
              s.operation(),
              w,
              own != null,
              summary.get(SummaryKeys.OPERATION),
              count(summary, SnapshotSummary.ADDED_RECORDS_PROP),
              count(summary, SnapshotSummary.TOTAL_RECORDS_PROP),
              tags.getOrDefault(s.snapshotId(), List.of())));
    }
    return infos;
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

  /**
   * MeterStore's own time of a commit ({@code meterstore.archived-at}), or null for a foreign one
   * (or one whose stamp a foreign tool garbled: it then inherits, like a foreign commit).
   */
  public static Instant stamp(Map<String, String> summary) {
    String text = summary == null ? null : summary.get(SummaryKeys.ARCHIVED_AT);
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static long count(Map<String, String> summary, String key) {
    String v = summary.get(key);
    try {
      return v == null ? -1 : Long.parseLong(v);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
