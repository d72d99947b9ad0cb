package org.meterstore.cold.commit;

import java.time.Instant;
import org.meterstore.api.table.ContentDigest;

/**
 * The outcome of {@code ColdTable.archive}.
 *
 * @param status committed, or lost to another archiver
 * @param snapshotId the snapshot this call committed, or -1 when it lost the race
 * @param watermark the table's W as this call last saw it: the request's {@code to} when committed,
 *     the winner's W when lost
 * @param digest the digest of the rows this call wrote in its last attempt (empty when lost before
 *     writing)
 * @param attempts how many commit attempts this call made (at least 1)
 * @param learnedAfterUnknownState whether the commit's outcome had to be learned by re-reading the
 *     table after the catalog left it unknown
 */
public record ArchiveResult(
    ArchiveStatus status,
    long snapshotId,
    Instant watermark,
    ContentDigest digest,
    int attempts,
    boolean learnedAfterUnknownState) {

  /** Whether this call's snapshot landed. */
  public boolean committed() {
    return status == ArchiveStatus.COMMITTED;
  }
}
