package org.meterstore.cold.snapshot;

import java.time.Instant;
import java.util.List;

/**
 * What an expiry run did.
 *
 * @param cutoff snapshots committed before this instant were eligible (the caller's {@code now}
 *     minus the retention, in UTC)
 * @param restamped whether the watermark had to be re-stamped onto the current snapshot first
 * @param expiredSnapshotIds the snapshots removed from the table's metadata, in sequence order
 * @param retainedSnapshots how many snapshots the table keeps
 */
public record ExpiryResult(
    Instant cutoff, boolean restamped, List<Long> expiredSnapshotIds, int retainedSnapshots) {

  /** Copies the id list. */
  public ExpiryResult {
    expiredSnapshotIds = List.copyOf(expiredSnapshotIds);
  }
}
