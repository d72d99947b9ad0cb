package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;

/** What the archive commits of a cold table say about its windows. */
final class ArchiveCommits {
  private ArchiveCommits() {}

  /**
   * Asserts that the archive commits, in commit order, cover {@code [1970-01-01, w)} without a gap
   * and without an overlap: each one's {@code meterstore.archived-range} starts where the one
   * before ended and ends at the W it carries, so every window was archived exactly once.
   *
   * @return how many archive commits there are
   */
  static int assertEachWindowOnce(ColdTable cold, Instant w) {
    org.apache.iceberg.Table iceberg = cold.icebergTable();
    List<SnapshotInfo> archives =
        cold.snapshots().stream()
            .filter(s -> "archive".equals(s.meterstoreOperation()))
            .sorted(Comparator.comparingLong(SnapshotInfo::sequenceNumber))
            .toList();
    Instant end = Instant.EPOCH;
    for (SnapshotInfo s : archives) {
      String range = iceberg.snapshot(s.snapshotId()).summary().get("meterstore.archived-range");
      String[] bounds = range.substring(1, range.length() - 1).split(", ");
      assertThat(Instant.parse(bounds[0])).as("start of archived range %s", range).isEqualTo(end);
      end = Instant.parse(bounds[1]);
      assertThat(s.watermark()).as("W of the commit of %s", range).isEqualTo(end);
    }
    assertThat(end).as("W after the last archive commit").isEqualTo(w);
    return archives.size();
  }
}
