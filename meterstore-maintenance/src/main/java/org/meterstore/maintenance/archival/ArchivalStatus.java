package org.meterstore.maintenance.archival;

/** How one archival run of one table ended (DESIGN § 6). */
public enum ArchivalStatus {
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
   * Another session holds the table's lease, or the lease was lost during the run (its session
   * ended) before a commit: this run changed nothing that a later run does not finish. Benign.
   */
  LEASE_CONTENDED,
  /** The cold table's schema drifted incompatibly: archival is halted for this table. */
  QUARANTINED,
  /** The run failed; {@link ArchivalRun#failure()} says why and what it left behind. */
  FAILED
}
