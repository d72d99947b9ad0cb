package org.meterstore.cold.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnapshotOrderTest {
  /**
   * Snapshots whose ids and timestamps disagree with their commit order, as happens with clock
   * skew, random snapshot ids and the two snapshots of one transaction (same millisecond).
   */
  static List<SnapshotInfo> history(int size, Random random) {
    List<SnapshotInfo> list = new ArrayList<>();
    for (int seq = 1; seq <= size; seq++) {
      Instant at = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(random.nextInt(1000));
      list.add(
          new SnapshotInfo(
              random.nextLong(), seq, at, at, "append", at, true, "archive", 1, seq, List.of()));
    }
    return list;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 20260101, 987654321})
  void ordersAShuffledListBySequenceNumberOnly(long seed) {
    Random random = new Random(seed);
    List<SnapshotInfo> expected = history(2 + random.nextInt(40), random);
    List<SnapshotInfo> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, random);

    List<SnapshotInfo> ordered = SnapshotOrder.ordered(shuffled);

    assertThat(ordered).containsExactlyElementsOf(expected);
    assertThat(shuffled).hasSameSizeAs(expected);
  }

  @ParameterizedTest
  @ValueSource(longs = {7, 8, 9})
  void listPositionAndTimestampDoNotDecideTheOrder(long seed) {
    Random random = new Random(seed);
    List<SnapshotInfo> expected = history(10, random);
    List<SnapshotInfo> reversed = new ArrayList<>(expected);
    Collections.reverse(reversed);
    assertThat(SnapshotOrder.ordered(reversed)).containsExactlyElementsOf(expected);
    List<SnapshotInfo> byTime = new ArrayList<>(expected);
    byTime.sort((a, b) -> a.committedAt().compareTo(b.committedAt()));
    assertThat(SnapshotOrder.ordered(byTime)).containsExactlyElementsOf(expected);
  }
}
