package org.meterstore.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Counts;
import org.meterstore.maintenance.outcome.TableOutcome.Status;

class MaintenanceOutcomeTest {
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");
  private static final Instant W = Instant.parse("2026-03-05T00:00:00Z");

  /** A table row that did not fail: its invariant check found {@code violations} rows below W. */
  private static TableOutcome row(String table, Status status, int windows, long violations) {
    return new TableOutcome(
        table,
        status,
        Counts.archival(windows, 96L * windows, 0, 0, 0),
        Optional.of(W),
        OptionalLong.of(violations),
        true,
        Optional.empty());
  }

  private static TableOutcome failed(String table, ErrorKind kind) {
    return TableOutcome.failed(table, new MeterStoreException(kind, "Cannot do it: down"));
  }

  @Test
  void deferralAndContentionAreHealthy() {
    MaintenanceOutcome outcome =
        new MaintenanceOutcome(
            NOW,
            List.of(
                row("a", Status.DEFERRED, 0, 0),
                row("b", Status.LEASE_CONTENDED, 0, 0),
                row("c", Status.NOTHING_DUE, 0, 0),
                row("d", Status.ARCHIVED, 2, 0),
                TableOutcome.swept(3)));
    assertThat(outcome.healthy()).isTrue();
    assertThat(outcome.unhealthy()).isEmpty();
    assertThat(outcome.failures()).isEmpty();
    assertThat(outcome.windowsArchived()).isEqualTo(2);
  }

  @Test
  void failuresQuarantineAndInvariantViolationsAreUnhealthy() {
    MaintenanceOutcome outcome =
        new MaintenanceOutcome(
            NOW,
            List.of(
                failed("a", ErrorKind.STORAGE),
                failed("b", ErrorKind.QUARANTINED),
                row("c", Status.ARCHIVED, 1, 3),
                row("d", Status.ARCHIVED, 1, 0),
                TableOutcome.sweepFailed(
                    new MeterStoreException(ErrorKind.STORAGE, "Cannot sweep: down"))));
    assertThat(outcome.healthy()).isFalse();
    assertThat(outcome.unhealthy())
        .extracting(TableOutcome::table)
        .containsExactly("a", "b", "c", TableOutcome.RETENTION);
    assertThat(outcome.failures())
        .extracting(TableOutcome::table)
        .containsExactly("a", "b", TableOutcome.RETENTION);
    assertThat(outcome.rows())
        .extracting(TableOutcome::status)
        .containsExactly(
            Status.FAILED, Status.QUARANTINED, Status.ARCHIVED, Status.ARCHIVED, Status.FAILED);
    assertThat(outcome.row("d")).isPresent();
    assertThat(outcome.row("x")).isEmpty();
    assertThat(outcome.windowsArchived()).isEqualTo(2);
  }

  @Test
  void anInvariantCheckThatCouldNotRunIsNoViolationButItsRowIsAFailure() {
    TableOutcome row = failed("a", ErrorKind.STORAGE);
    assertThat(row.invariantViolations()).isEmpty();
    assertThat(row.invariantHolds()).isFalse();
    assertThat(row.watermark()).isEmpty();
    assertThat(row.leaseWon()).isFalse();
    assertThat(row.counts()).isEqualTo(Counts.NONE);
    assertThat(row.unhealthy()).isTrue();
    assertThat(row.failure()).map(MeterStoreException::kind).contains(ErrorKind.STORAGE);
    assertThat(new MaintenanceOutcome(NOW, List.of(row)).healthy()).isFalse();
  }

  @Test
  void aTableRowThatDidNotFailMustCarryItsInvariantCheck() {
    assertThatInvalid(
        () ->
            new TableOutcome(
                "a",
                Status.DEFERRED,
                Counts.NONE,
                Optional.of(W),
                OptionalLong.empty(),
                true,
                Optional.empty()),
        "an invariant check unless the run failed");
  }

  @Test
  void aFailureGoesWithAFailedOrQuarantinedStatusOnly() {
    MeterStoreException down = new MeterStoreException(ErrorKind.STORAGE, "Cannot do it: down");
    assertThatInvalid(
        () ->
            new TableOutcome(
                "a",
                Status.ARCHIVED,
                Counts.NONE,
                Optional.of(W),
                OptionalLong.of(0),
                true,
                Optional.of(down)),
        "a failure exactly when FAILED or QUARANTINED");
    assertThatInvalid(
        () ->
            new TableOutcome(
                "a",
                Status.FAILED,
                Counts.NONE,
                Optional.empty(),
                OptionalLong.empty(),
                false,
                Optional.empty()),
        "a failure exactly when FAILED or QUARANTINED");
  }

  @Test
  void sweptIsTheRetentionRowsStatusAndOnlyIts() {
    TableOutcome swept = TableOutcome.swept(5);
    assertThat(swept.isRetention()).isTrue();
    assertThat(swept.counts().subjectsErased()).isEqualTo(5);
    assertThat(swept.invariantViolations()).isEmpty();
    assertThat(swept.unhealthy()).isFalse();
    assertThatInvalid(() -> row("a", Status.SWEPT, 0, 0), "SWEPT only, and always");
    assertThatInvalid(() -> row(TableOutcome.RETENTION, Status.ARCHIVED, 0, 0), "SWEPT only");
  }

  @Test
  void countsAreNeverNegativeAndOrphansAreAmongTheWindows() {
    assertThatInvalid(() -> Counts.archival(-1, 0, 0, 0, 0), "at least 0 each");
    assertThatInvalid(() -> Counts.erased(-1), "at least 0 each");
    assertThatInvalid(() -> Counts.archival(1, 96, 2, 0, 0), "0 to windowsArchived");
    assertThatInvalid(() -> row("a", Status.ARCHIVED, 1, -1), "at least 0");
    assertThat(Counts.archival(2, 192, 1, 3, 4))
        .isEqualTo(new Counts(2, 192, 1, 3, 4, 0))
        .extracting(Counts::partitionsDropped, Counts::snapshotsExpired)
        .containsExactly(3, 4);
  }

  @Test
  void aFailureOfKindQuarantinedIsTheQuarantinedStatus() {
    assertThat(failed("a", ErrorKind.QUARANTINED).status()).isEqualTo(Status.QUARANTINED);
    assertThat(failed("a", ErrorKind.LOCK_TIMEOUT).status()).isEqualTo(Status.FAILED);
    assertThat(failed("a", ErrorKind.QUARANTINED).failed()).isTrue();
  }

  private static void assertThatInvalid(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String rule) {
    org.assertj.core.api.Assertions.assertThatThrownBy(call)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(rule);
  }
}
