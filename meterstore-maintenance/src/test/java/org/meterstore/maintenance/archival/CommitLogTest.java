package org.meterstore.maintenance.archival;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.cold.commit.ContentDigest;

class CommitLogTest {
  private static final Map<String, String> ARCHIVE =
      Map.of(
          "meterstore.operation", "archive",
          "meterstore.archived-range", "[1970-01-01T00:00:00Z, 2026-03-02T00:00:00Z)",
          "meterstore.archived-at", "2026-03-04T06:00:00Z",
          "meterstore.digest", "rows=412;value-sum=17.250000");

  @Test
  void readsTheRangeTimeAndDigestOfAnArchivalCommit() {
    CommitLog.Commit c = CommitLog.parse(ARCHIVE).orElseThrow();
    assertThat(c.from()).isEqualTo(Instant.EPOCH);
    assertThat(c.to()).isEqualTo(Instant.parse("2026-03-02T00:00:00Z"));
    assertThat(c.archivedAt()).isEqualTo(Instant.parse("2026-03-04T06:00:00Z"));
    assertThat(c.digest()).isEqualTo(new ContentDigest(412, new BigDecimal("17.25")));
    assertThat(
            c.covers(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-03-02T00:00:00Z")))
        .isTrue();
    assertThat(
            c.covers(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-03-03T00:00:00Z")))
        .isFalse();
  }

  @Test
  void ignoresCorrectionsRestampsForeignCommitsAndUnreadableSummaries() {
    assertThat(CommitLog.parse(Map.of("meterstore.operation", "correction"))).isEmpty();
    assertThat(CommitLog.parse(Map.of())).isEmpty();
    assertThat(CommitLog.parse(null)).isEmpty();
    java.util.Map<String, String> broken = new java.util.HashMap<>(ARCHIVE);
    broken.put("meterstore.archived-range", "garbage");
    assertThat(CommitLog.parse(broken)).isEmpty();
  }
}
