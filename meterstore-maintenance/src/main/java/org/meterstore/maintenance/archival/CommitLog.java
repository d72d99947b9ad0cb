package org.meterstore.maintenance.archival;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.meterstore.cold.SummaryKeys;
import org.meterstore.cold.commit.ContentDigest;

/**
 * The archival commits still in a cold table's metadata, read from their snapshot summaries ({@code
 * meterstore.archived-range}, {@code .archived-at}, {@code .digest}). Reclamation asks it when the
 * commit covering a partition was made (for the reader grace) and what it carried (for the digest
 * re-check). A commit expired from the metadata is unknown here, which keeps its partition (never
 * the reverse).
 */
final class CommitLog {
  /** One archival commit. */
  record Commit(Instant from, Instant to, Instant archivedAt, ContentDigest digest) {
    boolean covers(Instant lower, Instant upper) {
      return !from.isAfter(lower) && !to.isBefore(upper);
    }
  }

  private final List<Commit> commits;

  private CommitLog(List<Commit> commits) {
    this.commits = List.copyOf(commits);
  }

  /** The archival commits of {@code table}'s retained snapshots. */
  static CommitLog of(Table table) {
    List<Commit> commits = new ArrayList<>();
    for (Snapshot s : table.snapshots()) {
      parse(s.summary()).ifPresent(commits::add);
    }
    return new CommitLog(commits);
  }

  /** The earliest archival commit whose range covers {@code [lower, upper)}. */
  Optional<Commit> covering(Instant lower, Instant upper) {
    return commits.stream()
        .filter(c -> c.covers(lower, upper))
        .min((a, b) -> a.archivedAt().compareTo(b.archivedAt()));
  }

  /** How many archival commits cover exactly or contain {@code [lower, upper)}. */
  long countCovering(Instant lower, Instant upper) {
    return commits.stream().filter(c -> c.covers(lower, upper)).count();
  }

  static Optional<Commit> parse(Map<String, String> summary) {
    if (summary == null || !"archive".equals(summary.get(SummaryKeys.OPERATION))) {
      return Optional.empty();
    }
    String range = summary.get(SummaryKeys.ARCHIVED_RANGE);
    String at = summary.get(SummaryKeys.ARCHIVED_AT);
    String digest = summary.get(SummaryKeys.DIGEST);
    if (range == null || at == null || digest == null) {
      return Optional.empty();
    }
    try {
      String[] bounds = range.substring(1, range.length() - 1).split(", ");
      return Optional.of(
          new Commit(
              Instant.parse(bounds[0]),
              Instant.parse(bounds[1]),
              Instant.parse(at),
              ContentDigest.parse(digest)));
    } catch (RuntimeException e) {
      // an unparsable summary is not one of ours: it covers nothing, so nothing is dropped for it
      return Optional.empty();
    }
  }
}
