package org.meterstore.cold.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.snapshot.SnapshotSelector.Kind;

class SnapshotSelectorTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void eachFactorySetsExactlyItsComponent() {
    assertThat(SnapshotSelector.current())
        .isEqualTo(new SnapshotSelector(Kind.CURRENT, null, null, null));
    assertThat(SnapshotSelector.snapshotId(42).snapshotId()).isEqualTo(42L);
    assertThat(SnapshotSelector.tag("settled").tag()).isEqualTo("settled");
    assertThat(SnapshotSelector.asOf(T).asOf()).isEqualTo(T);
  }

  @Test
  void describesWhatItNamesForMessages() {
    assertThat(SnapshotSelector.current().describe()).isEqualTo("the current snapshot");
    assertThat(SnapshotSelector.snapshotId(42).describe()).isEqualTo("snapshot 42");
    assertThat(SnapshotSelector.tag("settled").describe()).isEqualTo("tag settled");
    assertThat(SnapshotSelector.asOf(T).describe())
        .isEqualTo("the snapshot as of 2026-01-01T00:00:00Z");
  }

  @Test
  void refusesAMissingStrayOrBlankComponent() {
    assertInvalid(() -> new SnapshotSelector(Kind.SNAPSHOT_ID, null, null, null), "snapshot id");
    assertInvalid(() -> new SnapshotSelector(Kind.CURRENT, 1L, null, null), "snapshot id");
    assertInvalid(() -> new SnapshotSelector(Kind.AS_OF, null, "t", T), "tag");
    assertInvalid(() -> SnapshotSelector.tag(" "), "tag");
    assertInvalid(() -> new SnapshotSelector(Kind.AS_OF, null, null, null), "instant");
  }

  private static void assertInvalid(Runnable make, String field) {
    assertThatThrownBy(make::run)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageStartingWith("Invalid " + field + ": ");
  }
}
