package org.meterstore.cold.commit;

import java.time.Instant;
import java.util.Objects;
import org.meterstore.api.table.ContentDigest;

/**
 * What one {@code ColdTable.compact} call did. Immutable.
 *
 * @param status how the call ended
 * @param snapshotId the rewrite's snapshot, or -1 when nothing was committed
 * @param watermark W as the committed snapshot carries it (unchanged by the rewrite), or as the
 *     table had it when nothing was committed
 * @param partitionsCompacted month partitions whose small files were rewritten
 * @param filesRewritten data files replaced (still referenced by older snapshots until expiry)
 * @param filesWritten data files that replace them
 * @param bytesBefore total size of the replaced files, in bytes
 * @param bytesAfter total size of the replacing files, in bytes
 * @param digest row count and value sum of the rewritten rows (equal on both sides, re-read from
 *     the new files before committing)
 * @param attempts commit attempts made (0 when there was nothing to commit)
 */
public record CompactionResult(
    Status status,
    long snapshotId,
    Instant watermark,
    int partitionsCompacted,
    int filesRewritten,
    int filesWritten,
    long bytesBefore,
    long bytesAfter,
    ContentDigest digest,
    int attempts) {

  /** How a compaction ended when it did not throw. */
  public enum Status {
    /** The rewrite is the table's current snapshot (or an ancestor of it). */
    COMMITTED,
    /** No closed month has two or more small files: nothing was written. */
    NOTHING_TO_COMPACT,
    /**
     * The caller's lease check, asked just before the commit, said the lease is gone: the files
     * written were deleted and nothing was committed.
     */
    LEASE_LOST
  }

  /** Checks the counts. */
  public CompactionResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(watermark, "watermark");
    Objects.requireNonNull(digest, "digest");
    if (partitionsCompacted < 0
        || filesRewritten < 0
        || filesWritten < 0
        || bytesBefore < 0
        || bytesAfter < 0
        || attempts < 0) {
      throw new IllegalArgumentException(
          "Invalid compaction result: " + status + " with a negative count (at least 0 each)");
    }
  }

  /** The result of a call that committed nothing. */
  public static CompactionResult nothing(Status status, Instant watermark, int attempts) {
    return new CompactionResult(
        status, -1, watermark, 0, 0, 0, 0, 0, ContentDigest.EMPTY, attempts);
  }

  /** Whether the rewrite was committed. */
  public boolean committed() {
    return status == Status.COMMITTED;
  }
}
