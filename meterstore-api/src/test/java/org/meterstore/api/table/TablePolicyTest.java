package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.time.Duration;
import java.time.Period;
import org.junit.jupiter.api.Test;

class TablePolicyTest {
  @Test
  void hasTheDocumentedDefaults() {
    TablePolicy p = TablePolicy.DEFAULTS;
    assertThat(p.archivalStep()).isEqualTo(Duration.ofDays(1));
    assertThat(p.partitionHeadroom()).isEqualTo(Duration.ofDays(14));
    assertThat(p.readerGrace()).isEqualTo(Duration.ofHours(1));
    assertThat(p.snapshotRetention()).isEqualTo(Period.ofYears(10));
    assertThat(p.minSnapshotsToKeep()).isEqualTo(20);
  }

  @Test
  void anArchivalStepDividesADayOrIsWholeDays() {
    assertThat(TablePolicy.DEFAULTS.withArchivalStep(Duration.ofHours(6)).archivalStep())
        .isEqualTo(Duration.ofHours(6));
    assertThat(TablePolicy.DEFAULTS.withArchivalStep(Duration.ofDays(7)).archivalStep())
        .isEqualTo(Duration.ofDays(7));
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withArchivalStep(Duration.ofMinutes(7)), "archival_step");
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withArchivalStep(Duration.ofHours(36)), "archival_step");
    assertInvalid(() -> TablePolicy.DEFAULTS.withArchivalStep(Duration.ZERO), "archival_step");
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withArchivalStep(Duration.ofDays(32)), "archival_step");
  }

  @Test
  void refusesNegativeDurationsAndTooLittleHeadroom() {
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withSettlementLag(Duration.ofSeconds(-1)), "settlement_lag");
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withReaderGrace(Duration.ofSeconds(-1)), "reader_grace");
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withPartitionHeadroom(Duration.ofHours(1)),
        "partition_headroom");
    assertInvalid(
        () -> TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(1), 0),
        "min_snapshots_to_keep");
  }
}
