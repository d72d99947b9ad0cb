package org.meterstore.cold.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class SnapshotTagTest {
  @Test
  void acceptsSettlementStyleNames() {
    for (String name : new String[] {"settlement-2026-10", "settled", "Q3_2026.final", "7"}) {
      assertThat(SnapshotTag.requireValidName(name)).isEqualTo(name);
    }
    assertThat(SnapshotTag.requireValidName("a".repeat(100))).hasSize(100);
  }

  @Test
  void refusesBlankOddOrOverlongNamesAndTheMainBranch() {
    for (String name :
        new String[] {null, "", " ", "-lead", ".hidden", "a b", "a/b", "ä", "a".repeat(101)}) {
      assertThatThrownBy(() -> SnapshotTag.requireValidName(name))
          .as(String.valueOf(name))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("Invalid tag");
    }
    assertThatThrownBy(() -> SnapshotTag.requireValidName("main")).hasMessageContaining("branch");
  }
}
