package org.meterstore.maintenance;

import java.util.Objects;
import org.meterstore.api.MeterStoreException;

/**
 * One row of a {@link MaintenanceOutcome}: what one cycle did for one table, or for the retention
 * sweep (the row named {@value #RETENTION}).
 *
 * @param table the table name, or {@value #RETENTION}
 * @param status how the table's (or the sweep's) part of the cycle ended
 * @param windowsArchived windows committed to the cold tier
 * @param rowsArchived rows those windows carried
 * @param invariantViolations hot rows found below the watermark (0 is the invariant; -1 when the
 *     check could not run)
 * @param subjectsErased subject mappings the retention sweep erased (retention row only)
 * @param failure why the row failed or was quarantined (or what it refused); null otherwise
 */
public record TableOutcome(
    String table,
    Status status,
    int windowsArchived,
    long rowsArchived,
    long invariantViolations,
    long subjectsErased,
    MeterStoreException failure) {

  /** The name of the retention sweep's row. */
  public static final String RETENTION = "<retention>";

  /** How a row ended. */
  public enum Status {
    /** At least one window was archived. */
    ARCHIVED,
    /** Nothing was due. */
    NOTHING_DUE,
    /** A detach waited longer than {@code ddl_lock_timeout}; nothing changed for that window. */
    DEFERRED,
    /** Another replica holds the table's lease (or took it over mid-run); a benign no-op. */
    LEASE_CONTENDED,
    /** The cold schema drifted incompatibly; the table's archival is halted. */
    QUARANTINED,
    /** The table's (or the sweep's) work failed; {@link TableOutcome#failure()} says why. */
    FAILED,
    /** The retention sweep ran. */
    SWEPT
  }

  /** Checks the name and status. */
  public TableOutcome {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(status, "status");
  }

  /**
   * Whether this row needs an operator: it failed, is quarantined, or found hot rows below the
   * watermark. Deferral and lease contention are not unhealthy.
   */
  public boolean unhealthy() {
    return status == Status.FAILED || status == Status.QUARANTINED || invariantViolations > 0;
  }

  /** Whether the row is a failure with a cause (failed or quarantined). */
  public boolean failed() {
    return status == Status.FAILED || status == Status.QUARANTINED;
  }
}
