package org.meterstore.cold.internal.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.Period;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.cold.snapshot.SnapshotInfo;

class ExpiryPlannerTest {
  private static final Instant NOW = Instant.parse("2036-06-01T00:00:00Z");

  /** Iceberg's wall-clock commit time of every snapshot here: never what expiry measures by. */
  private static final Instant WALL_CLOCK = Instant.parse("2026-12-02T13:00:00Z");

  /**
   * Snapshot {@code seq} stamped by MeterStore {@code seq} days after 2020-01-01 (all committed at
   * the same wall-clock instant), ids = seq * 100.
   */
  private static List<SnapshotInfo> daily(int n, Set<Integer> tagged) {
    List<SnapshotInfo> list = new ArrayList<>();
    for (int seq = 1; seq <= n; seq++) {
      Instant at = Instant.parse("2020-01-01T00:00:00Z").plusSeconds(86_400L * seq);
      list.add(snapshot(seq, at, tagged.contains(seq) ? List.of("t" + seq) : List.of()));
    }
    return list;
  }

  private static SnapshotInfo snapshot(int seq, Instant stampedAt, List<String> tags) {
    return new SnapshotInfo(
        seq * 100L, seq, WALL_CLOCK, stampedAt, "append", null, true, "archive", 1, seq, tags);
  }

  @Test
  void theCutoffIsNowMinusTheRetentionOnTheUtcCalendar() {
    assertThat(ExpiryPlanner.cutoff(Instant.parse("2036-02-29T12:00:00Z"), Period.ofYears(10)))
        .isEqualTo(Instant.parse("2026-02-28T12:00:00Z"));
  }

  @Test
  void expiresOnlySnapshotsOlderThanTheCutoff() {
    List<SnapshotInfo> s = daily(10, Set.of());
    Instant cutoff = s.get(4).stampedAt();
    assertThat(ExpiryPlanner.plan(s, Set.of(1000L), cutoff, 1))
        .containsExactly(100L, 200L, 300L, 400L);
  }

  @Test
  void agesAreMeterStoresStampsNotIcebergsWallClock() {
    List<SnapshotInfo> s = daily(10, Set.of());
    assertThat(ExpiryPlanner.plan(s, Set.of(1000L), WALL_CLOCK.minusSeconds(86_400L * 365), 1))
        .as("every snapshot was committed after that cutoff by the wall clock, and stamped before")
        .hasSize(9);
    assertThat(ExpiryPlanner.plan(s, Set.of(1000L), Instant.parse("2020-01-01T00:00:00Z"), 1))
        .as("every snapshot was committed before that cutoff by the wall clock, and stamped after")
        .isEmpty();
  }

  @Test
  void aSnapshotWithoutAnyStampIsKept() {
    List<SnapshotInfo> s = new ArrayList<>(daily(5, Set.of()));
    s.set(0, snapshot(1, null, List.of()));
    assertThat(ExpiryPlanner.plan(s, Set.of(500L), NOW, 1)).containsExactly(200L, 300L, 400L);
  }

  @Test
  void neverTheCurrentTaggedOrNewestMinimum() {
    List<SnapshotInfo> s = daily(30, Set.of(2, 5));
    List<Long> plan = ExpiryPlanner.plan(s, Set.of(3000L, 700L), NOW, 20);
    // 30 snapshots, the newest 20 (11..30) kept; of 1..10, 2 and 5 are tagged, 7 is a ref.
    assertThat(plan).containsExactly(100L, 300L, 400L, 600L, 800L, 900L, 1000L);
  }

  @Test
  void nothingWhenTheTableHasNoMoreThanTheMinimum() {
    assertThat(ExpiryPlanner.plan(daily(20, Set.of()), Set.of(2000L), NOW, 20)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 5, 11, 2026})
  void theInputOrderDoesNotChangeThePlan(long seed) {
    Random random = new Random(seed);
    List<SnapshotInfo> s = daily(25, Set.of(3));
    List<Long> expected = ExpiryPlanner.plan(s, Set.of(2500L), NOW, 5);
    List<SnapshotInfo> shuffled = new ArrayList<>(s);
    Collections.shuffle(shuffled, random);
    int keep = 1 + random.nextInt(24);
    assertThat(ExpiryPlanner.plan(shuffled, Set.of(2500L), NOW, 5)).isEqualTo(expected);
    List<Long> plan = ExpiryPlanner.plan(shuffled, Set.of(2500L), NOW, keep);
    assertThat(plan).hasSizeLessThanOrEqualTo(25 - keep).doesNotContain(300L, 2500L);
  }
}
