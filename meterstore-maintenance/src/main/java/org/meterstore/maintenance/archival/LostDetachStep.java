package org.meterstore.maintenance.archival;

import java.time.Instant;
import java.util.List;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.partition.PartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detaches again the partitions whose detach PostgreSQL lost ({@link ArchivalPlan#lostDetaches()}).
 * With the Iceberg catalog outside PostgreSQL, a failover to an asynchronous standby can lose a
 * run's detach, committed watermark and drops while the catalog keeps its commit: the window's rows
 * are then attached below W as well as archived. Queries read no partition below W, so they count
 * them once; but the invariant check sees hot rows below W, and without this step no later run
 * would ever drop them. Detached again, such a partition is like any archived one: reclamation
 * drops it after the reader grace, and only when its digest matches the commit's (PostgreSQL may
 * also have lost rows written to it before the detach, which keeps it for an operator). A partition
 * is detached again only under the lease and once the recorded floor covers it, so no writer can
 * add to it meanwhile; a detach that cannot get its lock waits for the next run.
 */
final class LostDetachStep {
  private static final Logger LOG = LoggerFactory.getLogger(LostDetachStep.class);

  private final RunContext run;

  LostDetachStep(RunContext run) {
    this.run = run;
  }

  /**
   * Detaches {@code plan}'s lost detaches that {@code floor} (null: not recorded, nothing is done)
   * covers, reading their state from {@code partitions}.
   *
   * @return how many it detached
   */
  int run(ArchivalPlan plan, List<PartitionInfo> partitions, Instant floor) {
    int detached = 0;
    for (ObservedPartition p : plan.lostDetaches()) {
      if (floor == null || p.to().isAfter(floor) || !run.lease().isHeld()) {
        return detached;
      }
      PartitionInfo partition =
          partitions.stream().filter(x -> x.name().equals(p.name())).findFirst().orElseThrow();
      LOG.warn(
          "Partition {} of {} is attached below W {} although the archival commit made at {}"
              + " holds its window: PostgreSQL lost its detach (a failover to a standby that had"
              + " not received it?); detaching it again, it is dropped once its rows match that"
              + " commit",
          p.name(),
          run.name(),
          plan.watermark(),
          p.archivedAt());
      try {
        run.hot().partitions().detach(run.table(), p.name(), WindowsStep.modeFor(partition, run));
        detached++;
      } catch (MeterStoreException e) {
        if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
          throw e;
        }
        LOG.info("Detaching {} again deferred to the next run: {}", p.name(), e.getMessage());
      }
    }
    return detached;
  }
}
