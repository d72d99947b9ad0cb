package org.meterstore.cold.internal.commit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.ContentDigest;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.snapshot.SnapshotOrder;

/**
 * Reads archival commits back from the snapshot summaries {@link ArchivalCommitter} writes. Lives
 * next to the writer so the summary's form has one home. A summary that is not an archival one, or
 * that does not parse, is not one of MeterStore's commits: it covers nothing, so reclamation never
 * drops a partition on its word (an expired commit is likewise unknown, which keeps its partition).
 */
public final class ArchivalCommitReader {
  private ArchivalCommitReader() {}

  /** The archival commits among {@code table}'s retained snapshots, in sequence-number order. */
  public static List<ArchivalCommit> list(Table table) {
    List<ArchivalCommit> commits = new ArrayList<>();
    for (Snapshot s : table.snapshots()) {
      parse(s.snapshotId(), s.sequenceNumber(), s.summary()).ifPresent(commits::add);
    }
    return SnapshotOrder.bySequenceNumber(
        commits, ArchivalCommit::sequenceNumber, ArchivalCommit::snapshotId);
  }

  /**
   * The archival commit a snapshot's summary records, or empty for another kind of commit or a
   * summary that does not parse.
   *
   * @param summary the snapshot summary, or null
   */
  public static Optional<ArchivalCommit> parse(
      long snapshotId, long sequenceNumber, Map<String, String> summary) {
    if (summary == null || !"archive".equals(summary.get(SummaryKeys.OPERATION))) {
      return Optional.empty();
    }
    String range = summary.get(SummaryKeys.ARCHIVED_RANGE);
    String rows = summary.get(SummaryKeys.ROW_COUNT);
    String digest = summary.get(SummaryKeys.DIGEST);
    String at = summary.get(SummaryKeys.ARCHIVED_AT);
    String epoch = summary.get(SummaryKeys.LEASE_EPOCH);
    String w = summary.get(SummaryKeys.WATERMARK);
    if (range == null
        || rows == null
        || digest == null
        || at == null
        || epoch == null
        || w == null) {
      return Optional.empty();
    }
    try {
      Instant[] bounds = range(range);
      return Optional.of(
          new ArchivalCommit(
              snapshotId,
              sequenceNumber,
              bounds[0],
              bounds[1],
              Long.parseLong(rows),
              ContentDigest.parse(digest),
              Instant.parse(at),
              Long.parseLong(epoch),
              Instant.parse(w)));
    } catch (RuntimeException e) {
      // an unparsable summary is not one of ours: it covers nothing, so nothing is dropped for it
      return Optional.empty();
    }
  }

  /** {@code [from, to)} as written by {@link org.meterstore.cold.commit.ArchiveRequest#range()}. */
  private static Instant[] range(String text) {
    if (!text.startsWith("[") || !text.endsWith(")")) {
      throw new IllegalArgumentException("Invalid archived range: " + text + " ([from, to))");
    }
    String[] bounds = text.substring(1, text.length() - 1).split(", ", -1);
    if (bounds.length != 2) {
      throw new IllegalArgumentException("Invalid archived range: " + text + " ([from, to))");
    }
    return new Instant[] {Instant.parse(bounds[0]), Instant.parse(bounds[1])};
  }
}
