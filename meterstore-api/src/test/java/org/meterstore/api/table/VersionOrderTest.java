package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VersionOrderTest {
  private static final Instant T1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant T2 = Instant.parse("2026-03-02T00:00:00Z");

  @Test
  void aHigherVersionWinsWhateverItWasRecordedAt() {
    assertThat(VersionOrder.outranks(new BigDecimal("2"), T1, new BigDecimal("1"), T2)).isTrue();
    assertThat(VersionOrder.outranks(new BigDecimal("1"), T2, new BigDecimal("2"), T1)).isFalse();
  }

  @Test
  void equalVersionsAreDecidedByTheLaterRecordedAt() {
    assertThat(VersionOrder.outranks(new BigDecimal("5"), T2, new BigDecimal("5.0"), T1)).isTrue();
    assertThat(VersionOrder.outranks(new BigDecimal("5"), T1, new BigDecimal("5"), T2)).isFalse();
    assertThat(VersionOrder.outranks(new BigDecimal("5"), 7L, new BigDecimal("5"), 7L)).isFalse();
  }

  @Test
  void theSqlOrderIsTheSameRuleWinnerFirst() {
    assertThat(VersionOrder.sqlOrderBy()).isEqualTo("\"version\" DESC, \"recorded_at\" DESC");
    assertThat(VersionOrder.sqlOrderBy(c -> "`" + c + "`"))
        .isEqualTo("`version` DESC, `recorded_at` DESC");
    assertThat(VersionOrder.descendingColumns()).containsExactly("version", "recorded_at");
  }
}
