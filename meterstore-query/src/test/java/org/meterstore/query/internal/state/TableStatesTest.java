package org.meterstore.query.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.query.mode.ReadMode;

class TableStatesTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void asOfModesSelectTheirSnapshotAndEveryOtherModeTheCurrentOne() {
    assertThat(TableStates.selector(ReadMode.asOfSnapshot(42)))
        .isEqualTo(SnapshotSelector.snapshotId(42));
    assertThat(TableStates.selector(ReadMode.asOfTag("settled")))
        .isEqualTo(SnapshotSelector.tag("settled"));
    assertThat(TableStates.selector(ReadMode.asOfTime(T))).isEqualTo(SnapshotSelector.asOf(T));
    assertThat(TableStates.selector(ReadMode.current())).isEqualTo(SnapshotSelector.current());
    assertThat(TableStates.selector(ReadMode.historical())).isEqualTo(SnapshotSelector.current());
    assertThat(TableStates.selector(ReadMode.knownAt(T))).isEqualTo(SnapshotSelector.current());
  }

  @Test
  void aVersionCeilingDoesNotChangeTheSnapshot() {
    assertThat(TableStates.selector(ReadMode.asOfTag("settled").withVersionCeiling(BigInteger.TEN)))
        .isEqualTo(SnapshotSelector.tag("settled"));
  }
}
