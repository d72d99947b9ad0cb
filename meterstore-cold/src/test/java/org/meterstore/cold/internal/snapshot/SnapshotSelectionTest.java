package org.meterstore.cold.internal.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.snapshot.SnapshotSelection.LogEntry;
import org.meterstore.cold.internal.snapshot.SnapshotSelection.Metadata;
import org.meterstore.cold.snapshot.SnapshotSelector;

class SnapshotSelectionTest {
  private static final Instant T1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant T2 = Instant.parse("2026-01-02T00:00:00Z");
  private static final Instant T3 = Instant.parse("2026-01-03T00:00:00Z");

  /** Snapshot 10 (expired) became current at T1, 20 at T2, 30 at T3; tag "settled" names 20. */
  private static final Metadata TABLE =
      new Metadata(
          30L,
          Set.of(20L, 30L),
          Map.of("settled", 20L),
          List.of(
              new LogEntry(T1.toEpochMilli(), 10L),
              new LogEntry(T2.toEpochMilli(), 20L),
              new LogEntry(T3.toEpochMilli(), 30L)));

  private static final Metadata EMPTY = new Metadata(null, Set.of(), Map.of(), List.of());

  private static Long pick(SnapshotSelector selector, Metadata metadata) {
    return SnapshotSelection.pick(selector, metadata, "lastgang");
  }

  @Test
  void theCurrentSnapshotOrNoneForATableWithoutSnapshots() {
    assertThat(pick(SnapshotSelector.current(), TABLE)).isEqualTo(30L);
    assertThat(pick(SnapshotSelector.current(), EMPTY)).isNull();
  }

  @Test
  void aRetainedSnapshotByIdAndATagsSnapshot() {
    assertThat(pick(SnapshotSelector.snapshotId(20L), TABLE)).isEqualTo(20L);
    assertThat(pick(SnapshotSelector.tag("settled"), TABLE)).isEqualTo(20L);
  }

  @Test
  void theSnapshotCurrentAtAnInstantIncludingItsOwnCommitInstant() {
    assertThat(pick(SnapshotSelector.asOf(T2), TABLE)).isEqualTo(20L);
    assertThat(pick(SnapshotSelector.asOf(T3.minusMillis(1)), TABLE)).isEqualTo(20L);
    assertThat(pick(SnapshotSelector.asOf(T3.plusSeconds(3600)), TABLE)).isEqualTo(30L);
  }

  @Test
  void theLatestLogEntryWinsWhateverTheLogsOrderAndTheFirstOfEqualOnes() {
    Metadata shuffled =
        new Metadata(
            30L,
            Set.of(20L, 21L, 30L),
            Map.of(),
            List.of(
                new LogEntry(T3.toEpochMilli(), 30L),
                new LogEntry(T2.toEpochMilli(), 20L),
                new LogEntry(T2.toEpochMilli(), 21L)));
    assertThat(pick(SnapshotSelector.asOf(T2.plusSeconds(1)), shuffled)).isEqualTo(20L);
  }

  @Test
  void anUnknownOrExpiredSnapshotIsAQueryErrorNamingItNeverAFallback() {
    assertUnknown(SnapshotSelector.snapshotId(10L), "snapshot 10", "expired or never committed");
    assertUnknown(SnapshotSelector.snapshotId(99L), "snapshot 99", "expired or never committed");
    assertUnknown(SnapshotSelector.tag("nope"), "tag nope", "no such tag");
    assertUnknown(
        SnapshotSelector.asOf(T1.minusMillis(1)),
        "the snapshot as of " + T1.minusMillis(1),
        "none was current then");
    assertUnknown(
        SnapshotSelector.asOf(T1.plusSeconds(1)), "the snapshot as of " + T1.plusSeconds(1), "10");
  }

  private static void assertUnknown(SnapshotSelector selector, String what, String why) {
    assertThatThrownBy(() -> pick(selector, TABLE))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.QUERY);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageStartingWith("Cannot read " + what + " of table lastgang: it does not exist (")
        .hasMessageContaining(why)
        .hasMessageEndingWith("; pick one from system.snapshots");
  }
}
