package org.meterstore.maintenance.archival;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Step 7 of {@link Archiver}: drops the reclaimable partitions whose covering archival commit still
 * matches them. A partition is kept while the hot floor does not cover it, while its covering
 * commit is unknown (expired from the metadata), while a version of the table's resolved view read
 * within the reader grace names it, or when its digest differs from the commit's (the run's failure
 * then, and the partition stays detached until an operator resolves it).
 */
final class ReclaimStep {
  private static final Logger LOG = LoggerFactory.getLogger(ReclaimStep.class);

  private final RunContext run;

  ReclaimStep(RunContext run) {
    this.run = run;
  }

  /** Reclaims what {@code floor} (null: not recorded, nothing is dropped) allows. */
  RunShare run(List<ObservedPartition> reclaimable, List<ArchivalCommit> commits, Instant floor) {
    RunShare share = RunShare.NONE;
    for (ObservedPartition p : reclaimable) {
      try {
        share = share.plus(reclaim(p, commits, floor));
      } catch (RuntimeException e) {
        return share.failed(RunShare.failureOf(run.name(), e));
      }
      if (share.leaseLost()) {
        return share;
      }
    }
    return share;
  }

  private RunShare reclaim(ObservedPartition p, List<ArchivalCommit> commits, Instant floor) {
    run.faults().reached(FaultPoint.BEFORE_DROP, run.name(), p.name());
    if (floor == null || p.to().isAfter(floor)) {
      LOG.info("Keeping {} until the hot floor covers it (floor {})", p.name(), floor);
      return RunShare.NONE;
    }
    if (!run.lease().isHeld()) {
      return RunShare.leaseGone();
    }
    if (!run.cold()
        .resolvedView()
        .releases(p.to(), run.now(), run.table().policy().readerGrace())) {
      LOG.info(
          "Keeping {}: a version of the resolved view read within the reader grace names it",
          p.name());
      return RunShare.NONE;
    }
    ContentDigest committed =
        covering(commits, p.from(), p.to()).map(ArchivalCommit::digest).orElse(null);
    ContentDigest digest = run.hot().archival().digest(run.table(), p.name());
    if (committed == null || !committed.equals(digest)) {
      return RunShare.NONE.failed(mismatch(p.name(), committed, digest));
    }
    try {
      if (run.hot().partitions().drop(run.table(), p.name())) {
        run.metrics().dropped(run.name());
        return RunShare.partitionDropped();
      }
    } catch (MeterStoreException e) {
      if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
        throw e;
      }
      LOG.info("Reclaiming {} skipped this cycle: {}", p.name(), e.getMessage());
    }
    return RunShare.NONE;
  }

  /**
   * The first archival commit (in sequence order) whose window covers {@code [lower, upper)}. A
   * commit expired from the metadata is unknown here, which keeps its partition (never the
   * reverse).
   */
  static Optional<ArchivalCommit> covering(
      List<ArchivalCommit> commits, Instant lower, Instant upper) {
    return commits.stream().filter(c -> c.covers(lower, upper)).findFirst();
  }

  private MeterStoreException mismatch(
      String partition, ContentDigest committed, ContentDigest source) {
    return new MeterStoreException(
        ErrorKind.INVARIANT_VIOLATED,
        "Cannot reclaim partition "
            + partition
            + " of table "
            + run.name()
            + ": the cold commit carries "
            + (committed == null ? "no digest" : committed.toSummaryValue())
            + " but the source partition holds "
            + source.toSummaryValue()
            + "; the partition is kept detached and never dropped until an operator resolves it");
  }
}
