package org.meterstore.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.maintenance.TableOutcome.Status;

class MaintenanceOutcomeTest {
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");

  private static TableOutcome row(String table, Status status, long violations) {
    MeterStoreException failure =
        status == Status.FAILED || status == Status.QUARANTINED
            ? new MeterStoreException(ErrorKind.STORAGE, "Cannot do it: down")
            : null;
    return new TableOutcome(table, status, 0, 0, violations, 0, failure);
  }

  @Test
  void deferralAndContentionAreHealthy() {
    MaintenanceOutcome outcome =
        new MaintenanceOutcome(
            NOW,
            List.of(
                row("a", Status.DEFERRED, 0),
                row("b", Status.LEASE_CONTENDED, 0),
                row("c", Status.NOTHING_DUE, 0),
                row("d", Status.ARCHIVED, 0)));
    assertThat(outcome.healthy()).isTrue();
    assertThat(outcome.unhealthy()).isEmpty();
    assertThat(outcome.failures()).isEmpty();
  }

  @Test
  void failuresQuarantineAndInvariantViolationsAreUnhealthy() {
    MaintenanceOutcome outcome =
        new MaintenanceOutcome(
            NOW,
            List.of(
                row("a", Status.FAILED, -1),
                row("b", Status.QUARANTINED, 0),
                row("c", Status.ARCHIVED, 3),
                row("d", Status.ARCHIVED, 0),
                row(TableOutcome.RETENTION, Status.FAILED, 0)));
    assertThat(outcome.healthy()).isFalse();
    assertThat(outcome.unhealthy())
        .extracting(TableOutcome::table)
        .containsExactly("a", "b", "c", TableOutcome.RETENTION);
    assertThat(outcome.failures())
        .extracting(TableOutcome::table)
        .containsExactly("a", "b", TableOutcome.RETENTION);
    assertThat(outcome.row("d")).isPresent();
    assertThat(outcome.row("x")).isEmpty();
  }

  @Test
  void anInvariantCheckThatCouldNotRunIsNotCountedAsAViolation() {
    assertThat(row("a", Status.DEFERRED, -1).unhealthy()).isFalse();
  }
}
