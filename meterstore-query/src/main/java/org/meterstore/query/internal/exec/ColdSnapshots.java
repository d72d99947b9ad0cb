package org.meterstore.query.internal.exec;

import java.time.Instant;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.SummaryKeys;
import org.meterstore.query.ReadMode;

/**
 * Picks the snapshot a read mode reads and the watermark that snapshot carries. An unknown or
 * expired snapshot, tag or instant is an error naming it: never a fallback to another snapshot. The
 * watermark is read from the same snapshot (walking back through parents past foreign commits), so
 * W and the data a query reads can never come from two different commits.
 */
final class ColdSnapshots {
  private ColdSnapshots() {}

  /** The snapshot {@code mode} reads, or null when the table has none (current modes only). */
  static Long pick(Table table, ReadMode mode, String name) {
    switch (mode.kind()) {
      case AS_OF_SNAPSHOT:
        if (table.snapshot(mode.snapshotId()) == null) {
          throw unknown(name, "snapshot " + mode.snapshotId(), "expired or never committed");
        }
        return mode.snapshotId();
      case AS_OF_TAG:
        SnapshotRef ref = table.refs().get(mode.tag());
        if (ref == null || !ref.isTag()) {
          throw unknown(name, "tag " + mode.tag(), "no such tag");
        }
        return ref.snapshotId();
      case AS_OF_TIME:
        try {
          return SnapshotUtil.snapshotIdAsOfTime(table, mode.instant().toEpochMilli());
        } catch (IllegalArgumentException e) {
          throw unknown(name, "the snapshot as of " + mode.instant(), "none was current then");
        }
      default:
        Snapshot current = table.currentSnapshot();
        return current == null ? null : current.snapshotId();
    }
  }

  /** W as snapshot {@code snapshotId} (or no snapshot: the epoch) has it. */
  static Instant watermark(Table table, Long snapshotId, String name) {
    Long id = snapshotId;
    while (id != null) {
      Snapshot s = table.snapshot(id);
      if (s == null) {
        throw new MeterStoreException(
            ErrorKind.QUERY,
            "Cannot read the watermark of table "
                + name
                + ": the history behind snapshot "
                + snapshotId
                + " was expired before a snapshot carrying "
                + SummaryKeys.WATERMARK);
      }
      String w = s.summary() == null ? null : s.summary().get(SummaryKeys.WATERMARK);
      if (w != null) {
        return Instant.parse(w);
      }
      id = s.parentId();
    }
    return Instant.EPOCH;
  }

  private static MeterStoreException unknown(String table, String what, String why) {
    return new MeterStoreException(
        ErrorKind.QUERY,
        "Cannot read "
            + what
            + " of table "
            + table
            + ": it does not exist ("
            + why
            + "); pick one from system.snapshots");
  }
}
