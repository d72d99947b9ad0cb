package org.meterstore.cold.internal.watermark;

import java.time.Instant;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.stamp.CommitStamp;

/**
 * The rule that W never moves back (DESIGN § 1, "never both, never neither"): the hot tier records
 * the last W a MeterStore commit landed with (its committed watermark) and drops the partitions
 * below it, so a cold W below that value means the readings in between are in neither tier. That
 * happens when a foreign tool rolled the table back to an older snapshot (or set an older one
 * current). Every read of W that decides something (queries, archival, status, routed writes)
 * checks it here, and a regression is an {@code INVARIANT_VIOLATED} error naming both values, the
 * snapshot, and the snapshot to roll forward to when the table's metadata still has one.
 */
public final class WatermarkRegression {
  private WatermarkRegression() {}

  /**
   * Returns {@code w} when it is not below {@code committed}.
   *
   * @param table the loaded table {@code w} was read from, searched for a snapshot to roll forward
   *     to
   * @param snapshotId the snapshot {@code w} belongs to, or null for a table without snapshots
   * @param committed the committed watermark the hot tier recorded ({@link Instant#EPOCH} when none
   *     was recorded)
   * @throws MeterStoreException {@code INVARIANT_VIOLATED} when {@code w < committed}
   */
  public static Instant require(
      Table table, String tableName, Long snapshotId, Instant w, Instant committed) {
    if (committed == null || !w.isBefore(committed)) {
      return w;
    }
    throw regression(table, tableName, snapshotId, w, committed);
  }

  private static MeterStoreException regression(
      Table table, String tableName, Long snapshotId, Instant w, Instant committed) {
    Snapshot forward = rollForwardTarget(table, committed, tableName);
    String remedy =
        forward == null
            ? "no snapshot in the table's metadata carries it any more: restore the readings"
                + " between them (meterstore import of that range) to move W up again"
            : "roll the table forward to snapshot "
                + forward.snapshotId()
                + " (it carries W "
                + CommitStamp.ownWatermark(forward, tableName)
                + "), or restore the readings between them (meterstore import of that range)";
    return new MeterStoreException(
        ErrorKind.INVARIANT_VIOLATED,
        "The watermark of table "
            + tableName
            + " went back: the cold tier's current snapshot "
            + (snapshotId == null ? "(none)" : snapshotId)
            + " has W "
            + w
            + ", below "
            + committed
            + ", the last W MeterStore committed (as recorded in the hot tier), so the readings in ["
            + w
            + ", "
            + committed
            + ") are in neither tier (was the table rolled back by another tool?). Queries and"
            + " archival refuse the table until W is back: "
            + remedy);
  }

  /**
   * The newest snapshot (by sequence number) whose own W is at least {@code committed}, or null.
   */
  private static Snapshot rollForwardTarget(Table table, Instant committed, String tableName) {
    Snapshot best = null;
    for (Snapshot s : table.snapshots()) {
      Instant own;
      try {
        own = CommitStamp.ownWatermark(s, tableName);
      } catch (MeterStoreException e) {
        continue;
      }
      if (own != null
          && !own.isBefore(committed)
          && (best == null || s.sequenceNumber() > best.sequenceNumber())) {
        best = s;
      }
    }
    return best;
  }
}
