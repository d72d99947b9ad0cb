package org.meterstore.maintenance.outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.maintenance.outcome.TableOutcome.Counts;

class CompactionReportTest {
  @Test
  void countsWithoutCompactionReportNone() {
    assertThat(new Counts(1, 2, 0, 0, 0, 0).compaction()).isEqualTo(CompactionReport.NONE);
    assertThat(Counts.NONE.compaction()).isEqualTo(CompactionReport.NONE);
    assertThat(Counts.archival(1, 2, 0, 0, 0).compaction()).isEqualTo(CompactionReport.NONE);
  }

  @Test
  void anArchivalRunCarriesWhatItsCompactionRewrote() {
    CompactionReport report = new CompactionReport(1, 35, 1, 1_118_499, 1_148_626);
    assertThat(Counts.archival(0, 0, 0, 0, 0, report).compaction()).isEqualTo(report);
  }

  @Test
  void refusesNegativeCountsAndAMissingReport() {
    assertThatThrownBy(() -> new CompactionReport(0, -1, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid compaction report");
    assertThatThrownBy(() -> new Counts(0, 0, 0, 0, 0, 0, null))
        .isInstanceOf(NullPointerException.class);
  }
}
