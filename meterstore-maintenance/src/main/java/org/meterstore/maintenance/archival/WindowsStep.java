package org.meterstore.maintenance.archival;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.window.WindowStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Steps 5 and 6 of {@link Archiver} for each planned window: detach (or finish detaching) its
 * partition, then commit it through the {@link WindowStep}, stopping at the first window that
 * cannot proceed (lease gone, detach deferred by a lock, not committed).
 */
final class WindowsStep {
  private static final Logger LOG = LoggerFactory.getLogger(WindowsStep.class);

  private final RunContext run;

  WindowsStep(RunContext run) {
    this.run = run;
  }

  /**
   * Archives the plan's windows in order. A failure half way is the share's failure, and the
   * windows committed before it still count.
   */
  RunShare run(ArchivalPlan plan, List<PartitionInfo> partitions) {
    RunShare share = RunShare.NONE;
    for (ArchivalWindow window : plan.windows()) {
      if (!run.lease().isHeld()) {
        LOG.warn("Archival lease of {} lost before window {}", run.name(), window.partition());
        return share.plus(RunShare.leaseGone());
      }
      PartitionInfo partition =
          partitions.stream().filter(p -> p.name().equals(window.partition())).findFirst().get();
      RunShare next;
      try {
        next = detach(partition) ? archive(window) : RunShare.deferredByLock();
      } catch (RuntimeException e) {
        return share.failed(RunShare.failureOf(run.name(), e));
      }
      share = share.plus(next);
      if (!next.mayContinue() || next.deferred()) {
        return share;
      }
    }
    return share;
  }

  /** Detaches (or finishes detaching) a window's partition; false when it had to defer. */
  private boolean detach(PartitionInfo partition) {
    if (partition.state() != PartitionState.DETACHED) {
      try {
        run.hot().partitions().detach(run.table(), partition.name(), modeFor(partition, run));
      } catch (MeterStoreException e) {
        if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
          throw e;
        }
        run.metrics().deferred(run.name());
        LOG.info("Archival of {} deferred: {}", run.name(), e.getMessage());
        return false;
      }
    }
    run.faults().reached(FaultPoint.AFTER_DETACH, run.name(), partition.name());
    return true;
  }

  /** The configured mode, or the one that finishes an interrupted {@code DETACH CONCURRENTLY}. */
  static DetachMode modeFor(PartitionInfo partition, RunContext run) {
    return partition.state() == PartitionState.DETACH_PENDING
        ? DetachMode.CONCURRENTLY
        : run.settings().detachMode();
  }

  /** Streams and commits one detached window through the {@link WindowStep}. */
  private RunShare archive(ArchivalWindow window) {
    long started = System.nanoTime();
    String name = window.partition();
    WindowStep.Outcome outcome =
        new WindowStep(run.cold(), run.table(), run.watermark())
            .commit(
                new ArchiveRequest(window.from(), window.to(), run.now(), run.lease().epoch()),
                new PartitionSource(name),
                run.lease()::isHeld);
    ArchiveResult result = outcome.archive();
    if (!outcome.committed()) {
      LOG.warn(
          "Archival of {} window {} not committed: {} (W {})",
          run.name(),
          name,
          result.status(),
          result.watermark());
      return RunShare.leaseGone();
    }
    long rows = result.digest().rowCount();
    run.metrics().window(run.name(), rows, (System.nanoTime() - started) / 1e9, window.resumed());
    run.faults().reached(FaultPoint.AFTER_COMMIT, run.name(), name);
    return RunShare.archived(rows, window.resumed(), outcome.floor());
  }

  /**
   * A detached partition as a window's source: read on a worker thread while the committer writes
   * Parquet (the worker ends, joined, before the commit returns, whatever happens), and digested in
   * PostgreSQL once the commit landed.
   */
  private final class PartitionSource implements WindowStep.Source {
    private final String partition;

    PartitionSource(String partition) {
      this.partition = partition;
    }

    @Override
    public ImportWindowResult commit(
        ColdTable target, ArchiveRequest request, BooleanSupplier leaseHeld) {
      int chunk = run.settings().sourceChunkRows();
      ArchiveResult archived;
      try (PrefetchedRows source =
          new PrefetchedRows(
              boundary -> run.hot().archival().rows(run.table(), partition, chunk, boundary),
              chunk,
              c -> run.faults().reached(FaultPoint.BETWEEN_CHUNKS, run.name(), partition),
              "meterstore-archival-reader-" + run.name())) {
        archived = target.archive(request, source, leaseHeld);
      }
      if (archived.committed()) {
        run.faults().reached(FaultPoint.AFTER_COLD_COMMIT, run.name(), partition);
      }
      return new ImportWindowResult(archived, List.of());
    }

    @Override
    public ContentDigest expected(List<WriteOutcome> outcomes) {
      return run.hot().archival().digest(run.table(), partition);
    }

    @Override
    public String describe() {
      return "the source partition " + partition;
    }
  }
}
