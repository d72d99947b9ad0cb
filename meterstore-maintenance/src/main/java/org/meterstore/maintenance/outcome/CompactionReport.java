package org.meterstore.maintenance.outcome;

/**
 * What a run's compaction of one table did (all zero when compaction is off, found nothing to
 * rewrite, or did not commit). Immutable.
 *
 * @param partitionsCompacted month partitions whose small files were rewritten
 * @param filesRewritten data files replaced (older snapshots still reference them until expiry)
 * @param filesWritten data files that replace them
 * @param bytesBefore total size of the replaced files, in bytes
 * @param bytesAfter total size of the replacing files, in bytes
 */
public record CompactionReport(
    int partitionsCompacted,
    int filesRewritten,
    int filesWritten,
    long bytesBefore,
    long bytesAfter) {

  /** Nothing compacted. */
  public static final CompactionReport NONE = new CompactionReport(0, 0, 0, 0, 0);

  /** Checks that every count is at least 0. */
  public CompactionReport {
    if (partitionsCompacted < 0
        || filesRewritten < 0
        || filesWritten < 0
        || bytesBefore < 0
        || bytesAfter < 0) {
      throw new IllegalArgumentException(
          "Invalid compaction report: partitions "
              + partitionsCompacted
              + ", files "
              + filesRewritten
              + " -> "
              + filesWritten
              + ", bytes "
              + bytesBefore
              + " -> "
              + bytesAfter
              + " (at least 0 each)");
    }
  }
}
