package org.meterstore.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;

/** The CLI's summary of maintenance rows: status across cycles and warnings in one phrase each. */
class OutcomesTest {
  private static final Instant NOW = Instant.parse("2026-11-09T11:00:00Z");

  private static TableOutcome row(TableOutcome.Status status, int windows) {
    return new TableOutcome(
        "strom",
        status,
        windows == 0
            ? TableOutcome.Counts.NONE
            : new TableOutcome.Counts(windows, 96L * windows, 0, 0, 0, 0),
        Optional.of(NOW),
        OptionalLong.of(0),
        true,
        Optional.empty());
  }

  /** Issue #19 item 9: "deferred: deferred:". */
  @Test
  void aDeferredTableIsWarnedAboutOnceInOnePhrase() {
    Outcomes outcomes = new Outcomes();
    outcomes.add(new MaintenanceOutcome(NOW, List.of(row(TableOutcome.Status.DEFERRED, 0))));
    assertThat(outcomes.warnings())
        .containsExactly(
            "table strom: deferred: a lock was not granted within ddl_lock_timeout; retry later");
    assertThat(outcomes.exitCode()).isEqualTo(75);
  }

  @Test
  void cyclesThatArchivedAndThenFoundNothingDueSayArchived() {
    Outcomes outcomes = new Outcomes();
    outcomes.add(new MaintenanceOutcome(NOW, List.of(row(TableOutcome.Status.ARCHIVED, 3))));
    outcomes.add(new MaintenanceOutcome(NOW, List.of(row(TableOutcome.Status.NOTHING_DUE, 0))));
    List<Object> strom = outcomes.rows().rows().get(0);
    assertThat(strom.get(1)).isEqualTo("ARCHIVED");
    assertThat(strom.get(2)).isEqualTo(3);
    Outcomes idle = new Outcomes();
    idle.add(new MaintenanceOutcome(NOW, List.of(row(TableOutcome.Status.NOTHING_DUE, 0))));
    assertThat(idle.rows().rows().get(0).get(1)).isEqualTo("NOTHING_DUE");
  }
}
