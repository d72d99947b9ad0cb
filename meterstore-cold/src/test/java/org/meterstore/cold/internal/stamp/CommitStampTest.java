package org.meterstore.cold.internal.stamp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.SummaryKeys;

class CommitStampTest {
  private static final Instant TO = Instant.parse("2026-03-02T00:00:00Z");
  private static final Map<String, String> ARCHIVE =
      Map.of(
          "meterstore.operation", "archive",
          "meterstore.archived-range", "[1970-01-01T00:00:00Z, 2026-03-02T00:00:00Z)",
          "meterstore.row-count", "412",
          "meterstore.archived-at", "2026-03-04T06:00:00Z",
          "meterstore.lease-epoch", "7",
          "meterstore.watermark", "2026-03-02T00:00:00Z",
          "meterstore.digest", "rows=412;value-sum=17.250000");

  @Test
  void readsEveryFieldOfAnArchivalCommit() {
    ArchivalCommit c = CommitStamp.archivalCommit(11L, 3L, ARCHIVE).orElseThrow();
    assertThat(c.snapshotId()).isEqualTo(11L);
    assertThat(c.sequenceNumber()).isEqualTo(3L);
    assertThat(c.from()).isEqualTo(Instant.EPOCH);
    assertThat(c.to()).isEqualTo(TO);
    assertThat(c.rows()).isEqualTo(412);
    assertThat(c.archivedAt()).isEqualTo(Instant.parse("2026-03-04T06:00:00Z"));
    assertThat(c.leaseEpoch()).isEqualTo(7);
    assertThat(c.watermark()).isEqualTo(TO);
    assertThat(c.digest()).isEqualTo(new ContentDigest(412, new BigDecimal("17.25")));
  }

  @Test
  void readsTheRangeInTheFormTheArchiveRequestWritesIt() {
    ArchiveRequest request =
        new ArchiveRequest(Instant.parse("2026-03-01T00:00:00Z"), TO, Instant.EPOCH, 1);
    Map<String, String> summary = new HashMap<>(ARCHIVE);
    summary.put(SummaryKeys.ARCHIVED_RANGE, request.range());
    ArchivalCommit c = CommitStamp.archivalCommit(1L, 1L, summary).orElseThrow();
    assertThat(c.from()).isEqualTo(request.from());
    assertThat(c.to()).isEqualTo(request.to());
  }

  @Test
  void coversAWindowItContainsAndNoWindowReachingPastIt() {
    ArchivalCommit c = CommitStamp.archivalCommit(11L, 3L, ARCHIVE).orElseThrow();
    assertThat(c.covers(Instant.parse("2026-03-01T00:00:00Z"), TO)).isTrue();
    assertThat(c.covers(Instant.EPOCH, TO)).isTrue();
    assertThat(
            c.covers(Instant.parse("2026-03-01T00:00:00Z"), Instant.parse("2026-03-03T00:00:00Z")))
        .isFalse();
  }

  @Test
  void ignoresCorrectionsRestampsAndForeignCommits() {
    Map<String, String> correction = new HashMap<>(ARCHIVE);
    correction.put(SummaryKeys.OPERATION, "correction");
    assertThat(CommitStamp.archivalCommit(1L, 1L, correction)).isEmpty();
    assertThat(CommitStamp.archivalCommit(1L, 1L, Map.of("meterstore.operation", "restamp")))
        .isEmpty();
    assertThat(CommitStamp.archivalCommit(1L, 1L, Map.of())).isEmpty();
    assertThat(CommitStamp.archivalCommit(1L, 1L, null)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "meterstore.archived-range",
        "meterstore.row-count",
        "meterstore.archived-at",
        "meterstore.lease-epoch",
        "meterstore.watermark",
        "meterstore.digest"
      })
  void aSummaryMissingOrGarblingAKeyIsNotOurs(String key) {
    Map<String, String> missing = new HashMap<>(ARCHIVE);
    missing.remove(key);
    assertThat(CommitStamp.archivalCommit(1L, 1L, missing)).isEmpty();
    Map<String, String> garbled = new HashMap<>(ARCHIVE);
    garbled.put(key, "garbage");
    assertThat(CommitStamp.archivalCommit(1L, 1L, garbled)).isEmpty();
  }

  @Test
  void aRangeThatIsEmptyOrMisshapenIsNotOurs() {
    for (String range :
        new String[] {
          "[2026-03-02T00:00:00Z, 2026-03-02T00:00:00Z)",
          "[2026-03-03T00:00:00Z, 2026-03-02T00:00:00Z)",
          "2026-03-01T00:00:00Z, 2026-03-02T00:00:00Z",
          "[2026-03-01T00:00:00Z, 2026-03-02T00:00:00Z, 2026-03-03T00:00:00Z)"
        }) {
      Map<String, String> summary = new HashMap<>(ARCHIVE);
      summary.put(SummaryKeys.ARCHIVED_RANGE, range);
      assertThat(CommitStamp.archivalCommit(1L, 1L, summary)).as(range).isEmpty();
    }
  }

  @Test
  void aCommitRefusesAnEmptyWindowAndNegativeRows() {
    ContentDigest digest = ContentDigest.EMPTY;
    assertThatThrownBy(() -> new ArchivalCommit(1, 1, TO, TO, 0, digest, TO, 1, TO))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("archived range");
    assertThatThrownBy(() -> new ArchivalCommit(1, 1, Instant.EPOCH, TO, -1, digest, TO, 1, TO))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("row count");
  }

  @Test
  void whatTheWriterWritesTheParserReadsBack() {
    Instant from = Instant.parse("2026-03-01T00:00:00Z");
    Instant now = Instant.parse("2026-03-04T06:00:00Z");
    ContentDigest digest = new ContentDigest(412, new BigDecimal("17.250000"));
    CommitStamp stamp =
        CommitStamp.archive(from, TO, now, java.time.Duration.ofDays(1), 7, digest, "c-1");
    Map<String, String> summary = stamp.toSummary();
    ArchivalCommit c = CommitStamp.archivalCommit(11L, 3L, summary).orElseThrow();
    assertThat(c.from()).isEqualTo(from);
    assertThat(c.to()).isEqualTo(TO);
    assertThat(c.watermark()).isEqualTo(TO);
    assertThat(c.rows()).isEqualTo(412);
    assertThat(c.digest()).isEqualTo(digest);
    assertThat(c.archivedAt()).isEqualTo(now);
    assertThat(c.leaseEpoch()).isEqualTo(7);
    assertThat(summary)
        .containsEntry(SummaryKeys.OPERATION, "archive")
        .containsEntry(SummaryKeys.COMMIT_ID, "c-1")
        .containsEntry(SummaryKeys.ARCHIVAL_STEP, "PT24H");
  }

  @Test
  void eachOperationWritesOnlyItsOwnKeys() {
    ContentDigest digest = new ContentDigest(3, new BigDecimal("1.5"));
    Instant now = TO.plusSeconds(60);
    assertThat(CommitStamp.correction(TO, now, digest, "c").toSummary())
        .containsOnlyKeys(
            SummaryKeys.WATERMARK,
            SummaryKeys.ROW_COUNT,
            SummaryKeys.ARCHIVED_AT,
            SummaryKeys.DIGEST,
            SummaryKeys.COMMIT_ID,
            SummaryKeys.OPERATION);
    // a compaction adds no row: a digest of what it rewrote, no row count
    assertThat(CommitStamp.compact(TO, now, 4, digest, 9, "c").toSummary())
        .containsOnlyKeys(
            SummaryKeys.WATERMARK,
            SummaryKeys.ARCHIVED_AT,
            SummaryKeys.LEASE_EPOCH,
            SummaryKeys.DIGEST,
            SummaryKeys.REWRITTEN_FILES,
            SummaryKeys.COMMIT_ID,
            SummaryKeys.OPERATION)
        .containsEntry(SummaryKeys.REWRITTEN_FILES, "9");
    assertThat(CommitStamp.restamp(TO, now, "c").toSummary())
        .containsOnlyKeys(
            SummaryKeys.WATERMARK,
            SummaryKeys.ARCHIVED_AT,
            SummaryKeys.COMMIT_ID,
            SummaryKeys.OPERATION)
        .containsEntry(SummaryKeys.OPERATION, "restamp");
    assertThat(CommitStamp.archivalCommit(1L, 1L, CommitStamp.restamp(TO, now, "c").toSummary()))
        .isEmpty();
  }
}
