package org.meterstore.maintenance.archival;

import java.time.Instant;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.outage.StorageFailures;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.meterstore.maintenance.outcome.TableOutcome.Counts;

/**
 * One lease-scoped step's share of an archival run: what it did, and whether the run must stop (the
 * lease was lost, a lock deferred the window, or an invariant failed and is reported).
 *
 * @param windows windows archived
 * @param rows rows archived
 * @param orphans interrupted windows resumed
 * @param dropped partitions reclaimed
 * @param expired snapshots expired
 * @param compaction what compaction rewrote
 * @param floor the hot floor the step recorded last, or null when it recorded none
 * @param leaseLost whether the step found the lease gone
 * @param deferred whether a lock deferred the step
 * @param failure the first failure to report, or null
 */
record RunShare(
    int windows,
    long rows,
    int orphans,
    int dropped,
    int expired,
    CompactionReport compaction,
    Instant floor,
    boolean leaseLost,
    boolean deferred,
    MeterStoreException failure) {

  /** Nothing done. */
  static final RunShare NONE =
      new RunShare(0, 0, 0, 0, 0, CompactionReport.NONE, null, false, false, null);

  /** Whether the run may go on to its next writing step. */
  boolean mayContinue() {
    return !leaseLost && failure == null;
  }

  /** This share followed by {@code next}: counts added, the later floor, the first failure. */
  RunShare plus(RunShare next) {
    return new RunShare(
        windows + next.windows,
        rows + next.rows,
        orphans + next.orphans,
        dropped + next.dropped,
        expired + next.expired,
        next.compaction == CompactionReport.NONE ? compaction : next.compaction,
        next.floor != null ? next.floor : floor,
        leaseLost || next.leaseLost,
        deferred || next.deferred,
        failure != null ? failure : next.failure);
  }

  /** The share with {@code e} as its failure unless it already has one. */
  RunShare failed(MeterStoreException e) {
    return plus(NONE.withFailure(e));
  }

  private RunShare withFailure(MeterStoreException e) {
    return new RunShare(0, 0, 0, 0, 0, CompactionReport.NONE, null, false, false, e);
  }

  /** One window archived. */
  static RunShare archived(long rows, boolean resumed, Instant floor) {
    return new RunShare(
        1, rows, resumed ? 1 : 0, 0, 0, CompactionReport.NONE, floor, false, false, null);
  }

  /** One partition reclaimed. */
  static RunShare partitionDropped() {
    return new RunShare(0, 0, 0, 1, 0, CompactionReport.NONE, null, false, false, null);
  }

  /** Snapshots expired. */
  static RunShare expired(int snapshots) {
    return new RunShare(0, 0, 0, 0, snapshots, CompactionReport.NONE, null, false, false, null);
  }

  /** A compaction committed. */
  static RunShare compacted(CompactionReport report) {
    return new RunShare(0, 0, 0, 0, 0, report, null, false, false, null);
  }

  /** A lock deferred the step. */
  static RunShare deferredByLock() {
    return new RunShare(0, 0, 0, 0, 0, CompactionReport.NONE, null, false, true, null);
  }

  /** The share that only found the lease gone. */
  static RunShare leaseGone() {
    return new RunShare(0, 0, 0, 0, 0, CompactionReport.NONE, null, true, false, null);
  }

  /**
   * {@code e} as a run's failure: as it is when typed, classified as an outage when it is one
   * ({@link StorageFailures}), else a {@code STORAGE} error.
   */
  static MeterStoreException failureOf(String table, RuntimeException e) {
    if (e instanceof MeterStoreException m) {
      return m;
    }
    MeterStoreException outage = StorageFailures.classify("archive table " + table, e);
    return outage != null
        ? outage
        : new MeterStoreException(ErrorKind.STORAGE, "Cannot archive table " + table + ": " + e, e);
  }

  /** The counts of the run so far. */
  Counts counts() {
    return Counts.archival(windows, rows, orphans, dropped, expired, compaction);
  }
}
