package org.meterstore.maintenance.archival;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.CompactionResult;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The cold tier's upkeep under the lease, after the windows: compaction and snapshot expiry. */
final class UpkeepSteps {
  private static final Logger LOG = LoggerFactory.getLogger(UpkeepSteps.class);

  /**
   * Months one run compacts at most: a backlog of years is worked off a year per cycle, so that a
   * cycle stays short.
   */
  static final int MAX_COMPACTED_MONTHS = 12;

  private final RunContext run;

  UpkeepSteps(RunContext run) {
    this.run = run;
  }

  /**
   * Rewrites the small files of closed months ({@code ColdTable.compact}) under the lease: asked
   * again just before the commit, so a run whose lease ended cannot commit. A failure is the run's
   * failure; nothing was committed then.
   */
  RunShare compact() {
    long started = System.nanoTime();
    CompactionResult r =
        run.cold()
            .compact(
                run.now(),
                run.lease().epoch(),
                MAX_COMPACTED_MONTHS,
                () -> {
                  run.faults().reached(FaultPoint.BEFORE_COMPACTION_COMMIT, run.name(), null);
                  return run.lease().isHeld();
                });
    if (r.status() == CompactionResult.Status.LEASE_LOST) {
      LOG.warn("Archival lease of {} lost before its compaction committed", run.name());
      return RunShare.leaseGone();
    }
    if (!r.committed()) {
      return RunShare.NONE;
    }
    CompactionReport report =
        new CompactionReport(
            r.partitionsCompacted(),
            r.filesRewritten(),
            r.filesWritten(),
            r.bytesBefore(),
            r.bytesAfter());
    run.metrics().compacted(run.name(), report, (System.nanoTime() - started) / 1e9);
    return RunShare.compacted(report);
  }

  /**
   * Expires snapshots by the table's retention, keeping those partitions still await and those
   * {@code pins} read. The pins are the ones the run read under its lease: no pin can be taken
   * while the lease is held.
   */
  RunShare expire(List<StatePin> pins) {
    int expired =
        run.cold()
            .expireSnapshots(
                run.now(), run.settings().expiryPolicy(run.table().policy()), kept(pins))
            .expiredSnapshotIds()
            .size();
    return RunShare.expired(expired);
  }

  /**
   * The snapshots expiry must keep: the archival commits whose partitions are still detached (or
   * the partitions' reclamation finds no digest to re-check and never drops them), the snapshots
   * the resolved view's versions read within the reader grace, and the snapshots live state pins
   * read.
   */
  private Set<Long> kept(List<StatePin> pins) {
    List<ArchivalCommit> commits = run.cold().archivalCommits();
    Set<Long> keep = new HashSet<>();
    for (PartitionInfo p : run.hot().partitions().list(run.table())) {
      if (p.state() != PartitionState.ATTACHED) {
        ReclaimStep.covering(commits, p.lowerBound(), p.upperBound())
            .ifPresent(c -> keep.add(c.snapshotId()));
      }
    }
    // the resolved view's versions a reader may still be reading (its current one among them)
    keep.addAll(
        run.cold().resolvedView().snapshotsInUse(run.now(), run.table().policy().readerGrace()));
    // a foreign job pinned the state it reads: its snapshot stays until the pin ends
    for (StatePin pin : pins) {
      if (pin.snapshotId() != null) {
        keep.add(pin.snapshotId());
      }
    }
    return keep;
  }
}
