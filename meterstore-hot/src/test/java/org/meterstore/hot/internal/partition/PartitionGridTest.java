package org.meterstore.hot.internal.partition;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class PartitionGridTest {
  private final PartitionGrid daily = new PartitionGrid("lastgang", Duration.ofDays(1));

  @Test
  void namesAWindowAfterItsUtcLowerBound() {
    Instant lower = daily.floor(Instant.parse("2026-03-29T01:30:00Z"));
    assertThat(lower).isEqualTo(Instant.parse("2026-03-29T00:00:00Z"));
    assertThat(daily.name(lower)).isEqualTo("lastgang_2026_03_29_0000");
    assertThat(daily.upper(lower)).isEqualTo(Instant.parse("2026-03-30T00:00:00Z"));
  }

  @Test
  void listsEveryWindowIntersectingAHalfOpenRange() {
    PartitionGrid sixHours = new PartitionGrid("t", Duration.ofHours(6));
    assertThat(
            sixHours.lowerBounds(
                Instant.parse("2026-01-01T05:00:00Z"), Instant.parse("2026-01-01T12:00:00Z")))
        .containsExactly(
            Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T06:00:00Z"));
    assertThat(
            sixHours.lowerBounds(
                Instant.parse("2026-01-01T06:00:00Z"), Instant.parse("2026-01-01T06:00:00Z")))
        .isEmpty();
  }

  @Test
  void theCeilingIsTheFirstWindowStartingAtOrAfterAnInstant() {
    Instant midnight = Instant.parse("2026-03-02T00:00:00Z");
    assertThat(daily.ceiling(midnight)).isEqualTo(midnight);
    assertThat(daily.ceiling(midnight.plusNanos(1))).isEqualTo(midnight.plus(Duration.ofDays(1)));
    assertThat(daily.ceiling(midnight.minusSeconds(1))).isEqualTo(midnight);
    assertThat(daily.ceiling(Instant.parse("1969-12-31T12:00:00Z"))).isEqualTo(Instant.EPOCH);
  }

  @Test
  void readsBackOnlyNamesOfItsOwnTableOnItsOwnGrid() {
    assertThat(daily.lowerBound("lastgang_2026_03_02_0000"))
        .contains(Instant.parse("2026-03-02T00:00:00Z"));
    assertThat(daily.lowerBound("lastgang_2026_03_02_0600")).isEmpty();
    assertThat(daily.lowerBound("lastgang_x_2026_03_02_0000")).isEmpty();
    assertThat(daily.lowerBound("lastgang_2026_13_02_0000")).isEmpty();
    assertThat(daily.lowerBound("tables")).isEmpty();
  }

  @Test
  void floorsInstantsBeforeTheEpochDownwards() {
    assertThat(daily.floor(Instant.parse("1969-12-31T23:59:59Z")))
        .isEqualTo(Instant.parse("1969-12-31T00:00:00Z"));
  }

  /** Property: every instant lies in exactly the window its floor names, and names round-trip. */
  @RepeatedTest(20)
  void everyInstantLiesInTheWindowItsFloorNames(RepetitionInfo repetition) {
    Random random = new Random(repetition.getCurrentRepetition());
    long[] minutes = {15, 60, 360, 1440, 2880};
    PartitionGrid grid =
        new PartitionGrid("t", Duration.ofMinutes(minutes[random.nextInt(minutes.length)]));
    for (int i = 0; i < 200; i++) {
      Instant t = Instant.ofEpochSecond(random.nextInt(Integer.MAX_VALUE) * 2L - 1_000_000_000L);
      Instant lower = grid.floor(t);
      assertThat(lower).isBeforeOrEqualTo(t);
      assertThat(grid.upper(lower)).isAfter(t);
      assertThat(grid.lowerBound(grid.name(lower))).contains(lower);
      assertThat(grid.name(lower)).hasSizeLessThanOrEqualTo(50);
    }
  }
}
