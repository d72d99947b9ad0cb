package org.meterstore.maintenance.outcome;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * What one archival run of one table did, which is also that table's row of a maintenance cycle;
 * or, for the row named {@value #RETENTION}, what the cycle's retention sweep did. Immutable;
 * thread-safe.
 *
 * <p>The components agree with each other (checked on construction, {@code
 * IllegalArgumentException} otherwise): a failure is present exactly when the status is {@link
 * Status#FAILED} or {@link Status#QUARANTINED}; a table row that did not fail always carries its
 * invariant check; {@link Status#SWEPT} and only the {@value #RETENTION} row go together.
 *
 * @param table the table name, or {@value #RETENTION}
 * @param status how the table's (or the sweep's) part of the cycle ended
 * @param counts what the run moved, reclaimed and expired, or what the sweep erased
 * @param watermark the cold watermark W (UTC) as the run last read it: after its last commit when
 *     the run got that far, else as a contended run observed it; empty when the run failed before
 *     reading it, and for the {@value #RETENTION} row
 * @param invariantViolations hot rows found below W after the run (0 is the invariant, anything
 *     else means queries may be wrong); empty when the check could not run because the run failed
 *     first, and for the {@value #RETENTION} row, which checks no table
 * @param leaseWon whether this run held the table's lease (false for a run that found it held
 *     elsewhere, a run that failed before taking it, and the {@value #RETENTION} row); a run that
 *     won the lease and lost it mid-run is {@link Status#LEASE_CONTENDED} with {@code leaseWon}
 * @param failure why the row failed or was quarantined, or what it refused (stranded partitions, a
 *     digest mismatch); empty otherwise
 */
public record TableOutcome(
    String table,
    Status status,
    Counts counts,
    Optional<Instant> watermark,
    OptionalLong invariantViolations,
    boolean leaseWon,
    Optional<MeterStoreException> failure) {

  /** The name of the retention sweep's row. */
  public static final String RETENTION = "<retention>";

  /** Checks that the components are present and agree (see the class comment). */
  public TableOutcome {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(watermark, "watermark; use Optional.empty()");
    Objects.requireNonNull(invariantViolations, "invariantViolations; use OptionalLong.empty()");
    Objects.requireNonNull(failure, "failure; use Optional.empty()");
    boolean failedStatus = status == Status.FAILED || status == Status.QUARANTINED;
    if (failure.isPresent() != failedStatus) {
      throw invalid(table, "status " + status, "a failure exactly when FAILED or QUARANTINED");
    }
    if ((status == Status.SWEPT) != RETENTION.equals(table) && !failedStatus) {
      throw invalid(table, "status " + status, "SWEPT only, and always, for " + RETENTION);
    }
    if (invariantViolations.isPresent() && invariantViolations.getAsLong() < 0) {
      throw invalid(table, "invariantViolations " + invariantViolations, "at least 0");
    }
    if (invariantViolations.isEmpty() && !failedStatus && !RETENTION.equals(table)) {
      throw invalid(table, "status " + status, "an invariant check unless the run failed");
    }
  }

  /** The row of a table whose maintenance failed before it did anything: no counts, no check. */
  public static TableOutcome failed(String table, MeterStoreException failure) {
    Objects.requireNonNull(failure, "failure");
    return new TableOutcome(
        table,
        Status.ofFailure(failure),
        Counts.NONE,
        Optional.empty(),
        OptionalLong.empty(),
        false,
        Optional.of(failure));
  }

  /** The {@value #RETENTION} row of a sweep that erased {@code subjectsErased} mappings. */
  public static TableOutcome swept(long subjectsErased) {
    return new TableOutcome(
        RETENTION,
        Status.SWEPT,
        Counts.erased(subjectsErased),
        Optional.empty(),
        OptionalLong.empty(),
        false,
        Optional.empty());
  }

  /** The {@value #RETENTION} row of a sweep that failed; it is always {@link Status#FAILED}. */
  public static TableOutcome sweepFailed(MeterStoreException failure) {
    return new TableOutcome(
        RETENTION,
        Status.FAILED,
        Counts.NONE,
        Optional.empty(),
        OptionalLong.empty(),
        false,
        Optional.of(Objects.requireNonNull(failure, "failure")));
  }

  /** Whether this is the retention sweep's row. */
  public boolean isRetention() {
    return RETENTION.equals(table);
  }

  /** Whether the invariant check ran and found no hot row below W. */
  public boolean invariantHolds() {
    return invariantViolations.isPresent() && invariantViolations.getAsLong() == 0;
  }

  /**
   * Whether this row needs an operator: it failed, is quarantined, or found hot rows below the
   * watermark. Deferral and lease contention are not unhealthy. A check that could not run is not a
   * violation; it only happens on a failed row, which is unhealthy already.
   */
  public boolean unhealthy() {
    return failed() || invariantViolations.orElse(0) > 0;
  }

  /** Whether the row is a failure with a cause (failed or quarantined). */
  public boolean failed() {
    return status == Status.FAILED || status == Status.QUARANTINED;
  }

  private static IllegalArgumentException invalid(String table, String value, String rule) {
    return new IllegalArgumentException(
        "Invalid outcome of " + table + ": " + value + " (" + rule + ")");
  }

  /** How a row ended (DESIGN § 6). */
  public enum Status {
    /** At least one window was committed to the cold tier; W advanced. */
    ARCHIVED,
    /** The lease was won and no window is due; reclamation and checks still ran. */
    NOTHING_DUE,
    /**
     * A detach could not get its lock within {@code ddl_lock_timeout}: nothing was changed for that
     * window (windows before it may have been archived) and the next cycle retries. Benign.
     */
    DEFERRED,
    /**
     * A state pin (a Spark or Trino job reading the table at a pinned snapshot and W) holds the
     * table's archival: no window was archived, W stays until the pin is released or lapses;
     * reclamation, compaction and expiry (which keeps the pinned snapshot) still ran. Benign; see
     * {@code meterstore pins}.
     */
    HELD,
    /**
     * Another session holds the table's lease, or the lease was lost during the run (its session
     * ended) before a commit: this run changed nothing that a later run does not finish. Benign.
     */
    LEASE_CONTENDED,
    /** The cold table's schema drifted incompatibly: archival is halted for this table. */
    QUARANTINED,
    /** The table's (or the sweep's) work failed; {@link TableOutcome#failure()} says why. */
    FAILED,
    /** The retention sweep ran ({@value TableOutcome#RETENTION} row only). */
    SWEPT;

    /**
     * {@link #QUARANTINED} for a failure of kind {@code QUARANTINED}, {@link #FAILED} otherwise.
     */
    public static Status ofFailure(MeterStoreException failure) {
      return failure.kind() == ErrorKind.QUARANTINED ? QUARANTINED : FAILED;
    }
  }

  /**
   * What a row's work amounted to. All counts are at least 0 and count things this run (or sweep)
   * did, not totals of the table.
   *
   * @param windowsArchived windows (one {@code archival_step} each) committed to the cold tier
   * @param rowsArchived rows those commits carried
   * @param orphansReclaimed of those windows, the ones whose partition an interrupted earlier run
   *     had left detached and this run archived
   * @param partitionsDropped detached partitions reclaimed ({@code DROP TABLE}) by this run
   * @param snapshotsExpired cold snapshots expired (0 when expiry is off or the lease was lost)
   * @param subjectsErased subject mappings erased by the retention sweep ({@value
   *     TableOutcome#RETENTION} row only; 0 for a table)
   * @param compaction what the run's compaction rewrote ({@link CompactionReport#NONE} when off)
   * @param orphanFilesRemoved files under the table's location that nothing retained referenced,
   *     deleted by the cycle's orphan-file step (0 when it is off or did not run)
   */
  public record Counts(
      int windowsArchived,
      long rowsArchived,
      int orphansReclaimed,
      int partitionsDropped,
      int snapshotsExpired,
      long subjectsErased,
      CompactionReport compaction,
      int orphanFilesRemoved) {

    /** Nothing done. */
    public static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0);

    /** Counts without compaction. */
    public Counts(
        int windowsArchived,
        long rowsArchived,
        int orphansReclaimed,
        int partitionsDropped,
        int snapshotsExpired,
        long subjectsErased) {
      this(
          windowsArchived,
          rowsArchived,
          orphansReclaimed,
          partitionsDropped,
          snapshotsExpired,
          subjectsErased,
          CompactionReport.NONE);
    }

    /** Counts without orphan-file removal. */
    public Counts(
        int windowsArchived,
        long rowsArchived,
        int orphansReclaimed,
        int partitionsDropped,
        int snapshotsExpired,
        long subjectsErased,
        CompactionReport compaction) {
      this(
          windowsArchived,
          rowsArchived,
          orphansReclaimed,
          partitionsDropped,
          snapshotsExpired,
          subjectsErased,
          compaction,
          0);
    }

    /** Checks that every count is at least 0 and that orphans are among the windows. */
    public Counts {
      Objects.requireNonNull(compaction, "compaction; use CompactionReport.NONE");
      if (orphanFilesRemoved < 0) {
        throw new IllegalArgumentException(
            "Invalid orphanFilesRemoved: " + orphanFilesRemoved + " (at least 0)");
      }
      if (windowsArchived < 0
          || rowsArchived < 0
          || partitionsDropped < 0
          || snapshotsExpired < 0
          || subjectsErased < 0) {
        throw new IllegalArgumentException(
            "Invalid counts: windows "
                + windowsArchived
                + ", rows "
                + rowsArchived
                + ", dropped "
                + partitionsDropped
                + ", expired "
                + snapshotsExpired
                + ", erased "
                + subjectsErased
                + " (at least 0 each)");
      }
      if (orphansReclaimed < 0 || orphansReclaimed > windowsArchived) {
        throw new IllegalArgumentException(
            "Invalid orphansReclaimed: " + orphansReclaimed + " (0 to windowsArchived)");
      }
    }

    /** The counts of an archival run. */
    public static Counts archival(
        int windowsArchived,
        long rowsArchived,
        int orphansReclaimed,
        int partitionsDropped,
        int snapshotsExpired) {
      return new Counts(
          windowsArchived, rowsArchived, orphansReclaimed, partitionsDropped, snapshotsExpired, 0);
    }

    /** The counts of an archival run that also compacted. */
    public static Counts archival(
        int windowsArchived,
        long rowsArchived,
        int orphansReclaimed,
        int partitionsDropped,
        int snapshotsExpired,
        CompactionReport compaction) {
      return new Counts(
          windowsArchived,
          rowsArchived,
          orphansReclaimed,
          partitionsDropped,
          snapshotsExpired,
          0,
          compaction);
    }

    /** These counts with {@code removed} orphan files deleted. */
    public Counts withOrphanFilesRemoved(int removed) {
      return new Counts(
          windowsArchived,
          rowsArchived,
          orphansReclaimed,
          partitionsDropped,
          snapshotsExpired,
          subjectsErased,
          compaction,
          removed);
    }

    /** The counts of a retention sweep. */
    public static Counts erased(long subjectsErased) {
      return new Counts(0, 0, 0, 0, 0, subjectsErased);
    }
  }
}
