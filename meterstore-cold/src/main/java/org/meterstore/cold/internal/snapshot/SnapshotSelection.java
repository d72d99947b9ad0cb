package org.meterstore.cold.internal.snapshot;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.snapshot.SnapshotSelector;

/**
 * Picks the snapshot a {@link SnapshotSelector} names, as a pure function of the table's metadata
 * (so it is tested without a table). An unknown or expired snapshot, tag or instant is a {@code
 * QUERY} error naming it and pointing to {@code system.snapshots}: never a fallback to another
 * snapshot, because a settlement re-read must return exactly what it read before or nothing.
 */
public final class SnapshotSelection {
  private SnapshotSelection() {}

  /**
   * What selection reads of a table's metadata.
   *
   * @param currentId the current snapshot, or null when the table has none
   * @param snapshotIds the retained snapshots
   * @param tags the snapshot each tag points at
   * @param log the snapshot log (which snapshot became current when), oldest first
   */
  public record Metadata(
      Long currentId, Set<Long> snapshotIds, Map<String, Long> tags, List<LogEntry> log) {

    /** Copies the collections. */
    public Metadata {
      snapshotIds = Set.copyOf(snapshotIds);
      tags = Map.copyOf(tags);
      log = List.copyOf(log);
    }

    /** The metadata of {@code table} as loaded. */
    public static Metadata of(Table table) {
      Snapshot current = table.currentSnapshot();
      Set<Long> ids = new HashSet<>();
      table.snapshots().forEach(s -> ids.add(s.snapshotId()));
      Map<String, Long> tags = new HashMap<>();
      for (Map.Entry<String, SnapshotRef> e : table.refs().entrySet()) {
        if (e.getValue().isTag()) {
          tags.put(e.getKey(), e.getValue().snapshotId());
        }
      }
      List<LogEntry> log =
          table.history().stream()
              .map((HistoryEntry h) -> new LogEntry(h.timestampMillis(), h.snapshotId()))
              .toList();
      return new Metadata(current == null ? null : current.snapshotId(), ids, tags, log);
    }
  }

  /**
   * One entry of the snapshot log.
   *
   * @param timestampMillis when the snapshot became current (epoch milliseconds, UTC)
   * @param snapshotId the snapshot
   */
  public record LogEntry(long timestampMillis, long snapshotId) {}

  /**
   * The snapshot {@code selector} names in {@code metadata}; null only for the current snapshot of
   * a table that has none.
   *
   * @throws MeterStoreException {@code QUERY} naming the selector and {@code tableName} when the
   *     snapshot, tag or instant does not resolve to a retained snapshot
   */
  public static Long pick(SnapshotSelector selector, Metadata metadata, String tableName) {
    switch (selector.kind()) {
      case SNAPSHOT_ID:
        if (!metadata.snapshotIds().contains(selector.snapshotId())) {
          throw unknown(selector, tableName, "expired or never committed");
        }
        return selector.snapshotId();
      case TAG:
        Long tagged = metadata.tags().get(selector.tag());
        if (tagged == null) {
          throw unknown(selector, tableName, "no such tag");
        }
        return tagged;
      case AS_OF:
        return asOf(selector, metadata, tableName);
      default:
        return metadata.currentId();
    }
  }

  /**
   * The snapshot of the log entry with the latest timestamp at or before the selector's instant
   * (the first of equal ones), as Iceberg's {@code SnapshotUtil.snapshotIdAsOfTime} picks it.
   */
  private static Long asOf(SnapshotSelector selector, Metadata metadata, String tableName) {
    long millis = selector.asOf().toEpochMilli();
    Long id = null;
    long latest = Long.MIN_VALUE;
    for (LogEntry e : metadata.log()) {
      if (e.timestampMillis() <= millis && e.timestampMillis() > latest) {
        id = e.snapshotId();
        latest = e.timestampMillis();
      }
    }
    if (id == null) {
      throw unknown(selector, tableName, "none was current then");
    }
    if (!metadata.snapshotIds().contains(id)) {
      throw unknown(selector, tableName, "snapshot " + id + ", current then, was expired");
    }
    return id;
  }

  private static MeterStoreException unknown(
      SnapshotSelector selector, String tableName, String why) {
    return new MeterStoreException(
        ErrorKind.QUERY,
        "Cannot read "
            + selector.describe()
            + " of table "
            + tableName
            + ": it does not exist ("
            + why
            + "); pick one from system.snapshots");
  }
}
