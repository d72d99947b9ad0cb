package org.meterstore.cold.internal.snapshot;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotTag;

/**
 * Creates, removes and lists a cold table's tags. Tags are Iceberg refs that never age out (their
 * max ref age is unbounded), so only an explicit untag lets expiry remove the snapshot; the name
 * rule lives in {@link SnapshotTag#requireValidName}.
 */
public final class Tagger {
  private Tagger() {}

  /**
   * Tags {@code snapshotId} (or the current snapshot when null) of {@code table} with {@code name}.
   */
  public static long tag(Table table, String tableName, String name, Long snapshotId) {
    SnapshotTag.requireValidName(name);
    SnapshotRef existing = table.refs().get(name);
    if (existing != null) {
      throw MeterStoreException.invalid(
          "tag",
          name,
          (existing.isTag() ? "it already tags snapshot " + existing.snapshotId() : "a branch")
              + " of cold table "
              + tableName
              + "; untag it first to move it");
    }
    long id;
    if (snapshotId == null) {
      Snapshot current = table.currentSnapshot();
      if (current == null) {
        throw MeterStoreException.invalid(
            "tag", name, "cold table " + tableName + " has no snapshot to tag");
      }
      id = current.snapshotId();
    } else if (table.snapshot(snapshotId) == null) {
      throw MeterStoreException.invalid(
          "snapshot",
          snapshotId,
          "an existing snapshot of cold table " + tableName + " (see system.snapshots)");
    } else {
      id = snapshotId;
    }
    table.manageSnapshots().createTag(name, id).setMaxRefAgeMs(name, Long.MAX_VALUE).commit();
    return id;
  }

  /** Removes tag {@code name}; returns the id of the snapshot it tagged. */
  public static long untag(Table table, String tableName, String name) {
    SnapshotTag.requireValidName(name);
    SnapshotRef ref = table.refs().get(name);
    if (ref == null || !ref.isTag()) {
      throw MeterStoreException.invalid(
          "tag", name, "an existing tag of cold table " + tableName + " (see meterstore tags)");
    }
    table.manageSnapshots().removeTag(name).commit();
    return ref.snapshotId();
  }

  /** The tags of {@code table}, sorted by name. */
  public static List<SnapshotTag> list(Table table, String tableName) {
    List<SnapshotTag> tags = new ArrayList<>();
    for (SnapshotInfo s : SnapshotLister.list(table, tableName)) {
      for (String name : s.tags()) {
        tags.add(
            new SnapshotTag(
                name,
                s.snapshotId(),
                s.sequenceNumber(),
                s.committedAt(),
                CommitStamp.archivedAt(table.snapshot(s.snapshotId())),
                s.watermark(),
                s.totalRows()));
      }
    }
    tags.sort((a, b) -> a.name().compareTo(b.name()));
    return tags;
  }
}
