package org.meterstore.cold.commit;

import java.time.Instant;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;

/**
 * One archival commit still in a cold table's metadata, as its snapshot summary records it (DESIGN
 * § 5). Corrections, re-stamps and foreign commits are not archival commits; a summary that does
 * not parse is not MeterStore's and yields none.
 *
 * @param snapshotId the Iceberg snapshot the commit made
 * @param sequenceNumber its sequence number: the order of commits
 * @param from the archived window's start, inclusive (UTC)
 * @param to the archived window's end, exclusive (UTC), after {@code from}
 * @param rows how many rows the commit added ({@code meterstore.row-count}), zero or more
 * @param digest the content digest of the added rows, never null
 * @param archivedAt the committer's {@code now} ({@code meterstore.archived-at}, UTC), never null
 * @param leaseEpoch the epoch of the archival lease the committer held
 * @param watermark the W the commit set (UTC), never null
 */
public record ArchivalCommit(
    long snapshotId,
    long sequenceNumber,
    Instant from,
    Instant to,
    long rows,
    ContentDigest digest,
    Instant archivedAt,
    long leaseEpoch,
    Instant watermark) {

  /**
   * Checks the window, the counts and that nothing is null.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the field
   */
  public ArchivalCommit {
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(archivedAt, "archivedAt");
    Objects.requireNonNull(watermark, "watermark");
    if (from == null || to == null || !to.isAfter(from)) {
      throw MeterStoreException.invalid(
          "archived range", "[" + from + ", " + to + ")", "to must be after from");
    }
    if (rows < 0) {
      throw MeterStoreException.invalid("archived row count", rows, "zero or more");
    }
  }

  /**
   * Whether this commit's window contains {@code [lower, upper)} (both bounds UTC; equal windows
   * count): every row of such a partition was archived by this commit.
   */
  public boolean covers(Instant lower, Instant upper) {
    return !from.isAfter(lower) && !to.isBefore(upper);
  }
}
