package org.meterstore.cold.internal.commit;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.internal.stamp.CommitStamp;
import org.meterstore.cold.snapshot.SnapshotOrder;

/**
 * Lists the archival commits still in a table's metadata, as {@link CommitStamp} parses them. A
 * summary that is not an archival one, or that does not parse, is not one of MeterStore's commits:
 * it covers nothing, so reclamation never drops a partition on its word (an expired commit is
 * likewise unknown, which keeps its partition).
 */
public final class ArchivalCommitReader {
  private ArchivalCommitReader() {}

  /** The archival commits among {@code table}'s retained snapshots, in sequence-number order. */
  public static List<ArchivalCommit> list(Table table) {
    List<ArchivalCommit> commits = new ArrayList<>();
    for (Snapshot s : table.snapshots()) {
      CommitStamp.archivalCommit(s).ifPresent(commits::add);
    }
    return SnapshotOrder.bySequenceNumber(
        commits, ArchivalCommit::sequenceNumber, ArchivalCommit::snapshotId);
  }
}
