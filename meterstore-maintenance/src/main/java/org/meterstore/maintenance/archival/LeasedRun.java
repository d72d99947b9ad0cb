package org.meterstore.maintenance.archival;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.cold.view.PublishResult;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.window.TierWatermark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one table while its lease is held: steps 2 to 8 of {@link Archiver}, as lease-scoped
 * steps that each return their share of the counts ({@link RunShare}): a detach PostgreSQL lost
 * ({@link LostDetachStep}), the windows ({@link WindowsStep}), reclamation ({@link ReclaimStep}),
 * compaction and expiry ({@link UpkeepSteps}). A failure half way still reports what the steps
 * before it did. Used once, on one thread.
 */
final class LeasedRun {
  private static final Logger LOG = LoggerFactory.getLogger(LeasedRun.class);

  private final RunContext run;
  private RunShare share = RunShare.NONE;

  /** Whether a state pin held this run's windows back. */
  private boolean held;

  LeasedRun(
      HotStore hot,
      ColdTable cold,
      TableDefinition table,
      Instant now,
      ArchivalLease lease,
      ArchivalSettings settings,
      ArchivalMetrics metrics) {
    this.run =
        new RunContext(
            hot,
            cold,
            table,
            now,
            lease,
            settings,
            metrics,
            FaultInjection.current(),
            new TierWatermark(hot, cold, table));
  }

  TableOutcome execute(int maxWindows, boolean expireSnapshots, boolean compact) {
    TableDefinition table = run.table();
    Instant w = null;
    OptionalLong below = OptionalLong.empty();
    try {
      run.faults().reached(FaultPoint.AFTER_LEASE, table.name(), null);
      run.cold().requireNoDrift();
      requireArchivalStep();
      List<PartitionInfo> partitions = run.hot().partitions().list(table);
      List<ArchivalCommit> commits = run.cold().archivalCommits();
      Instant current = run.watermark().read();
      // the floor is recorded at the start too: it repairs one a crash after a commit left behind
      Instant floor = run.watermark().recordCommitted(current);
      ArchivalPlan plan = plan(current, partitions, commits, maxWindows);
      if (new LostDetachStep(run).run(plan, partitions, floor) > 0) {
        // planned again: the partitions detached again are archived ones reclamation may drop
        partitions = run.hot().partitions().list(table);
        plan = plan(current, partitions, commits, maxWindows);
      }
      List<StatePin> pins = run.hot().pins().statePins(table.name(), run.now());
      if (pins.isEmpty()) {
        share = share.plus(new WindowsStep(run).run(plan, partitions));
      } else if (!plan.windows().isEmpty()) {
        // a foreign job reads (S, W): moving W would detach partitions it reads from the parent
        LOG.info(
            "Archival of {} held by {} state pin(s), the first by {} until {}",
            table.name(),
            pins.size(),
            pins.get(0).holder(),
            pins.get(0).expiresAt());
        held = true;
      }
      if (share.mayContinue()) {
        // the resolved view reads the current state before anything it named can be reclaimed
        PublishResult view = run.cold().resolvedView().publish(run.now());
        if (!view.current()) {
          LOG.warn(
              "Resolved view of {} stays at its earlier state: {}", table.name(), view.message());
        }
        Instant reclaimFloor = share.floor() != null ? share.floor() : floor;
        share = share.plus(new ReclaimStep(run).run(plan.reclaimable(), commits, reclaimFloor));
      }
      refuseStranded(plan.stranded());
      UpkeepSteps upkeep = new UpkeepSteps(run);
      if (compact && share.mayContinue()) {
        share = share.plus(upkeep.compact());
      }
      if (expireSnapshots && !share.leaseLost()) {
        share = share.plus(upkeep.expire(pins));
      }
      w = run.watermark().read();
      below =
          OptionalLong.of(Archiver.checkInvariant(run.hot(), run.metrics(), table, w, run.now()));
    } catch (RuntimeException e) {
      share = share.failed(RunShare.failureOf(table.name(), e));
    }
    return result(w, below);
  }

  private TableOutcome result(Instant w, OptionalLong below) {
    Status status;
    MeterStoreException failure = share.failure();
    if (failure != null) {
      status = Status.ofFailure(failure);
      // One line per failed table comes from the maintenance cycle or the caller; the trace here.
      LOG.debug("Archival run of {} ended {}", run.name(), status, failure);
    } else if (share.leaseLost()) {
      status = Status.LEASE_CONTENDED;
    } else if (share.deferred()) {
      status = Status.DEFERRED;
    } else if (held) {
      status = Status.HELD;
    } else {
      status = share.windows() > 0 ? Status.ARCHIVED : Status.NOTHING_DUE;
    }
    return new TableOutcome(
        run.name(),
        status,
        share.counts(),
        Optional.ofNullable(w),
        below,
        true,
        Optional.ofNullable(failure));
  }

  /** Step 3: both tiers must record the configured archival step. */
  private void requireArchivalStep() {
    TableDefinition table = run.table();
    requireHotArchivalStep(run.hot(), table);
    Optional<Duration> inCold = run.cold().recordedArchivalStep();
    if (inCold.filter(s -> !s.equals(table.policy().archivalStep())).isPresent()) {
      throw stepChanged(table, inCold.get(), "Iceberg");
    }
  }

  /**
   * The hot tier's recorded step must be the configured one. Checked before the cold table is
   * opened, because opening creates a missing cold table with the configured step.
   */
  static void requireHotArchivalStep(HotStore hot, TableDefinition table) {
    Duration inHot = hot.archival().recordedArchivalStep(table);
    if (!inHot.equals(table.policy().archivalStep())) {
      throw stepChanged(table, inHot, "PostgreSQL");
    }
  }

  private static MeterStoreException stepChanged(
      TableDefinition table, Duration recorded, String tier) {
    return new MeterStoreException(
        ErrorKind.CONFIG,
        "Cannot archive table "
            + table.name()
            + ": its archival_step is configured as "
            + table.policy().archivalStep()
            + " but recorded as "
            + recorded
            + " in "
            + tier
            + "; a table's step cannot change (restore the configuration)");
  }

  private ArchivalPlan plan(
      Instant w, List<PartitionInfo> partitions, List<ArchivalCommit> commits, int maxWindows) {
    List<ObservedPartition> observed = new ArrayList<>();
    for (PartitionInfo p : partitions) {
      boolean detached = p.state() == PartitionState.DETACHED;
      Instant archivedAt =
          ReclaimStep.covering(commits, p.lowerBound(), p.upperBound())
              .map(ArchivalCommit::archivedAt)
              .orElse(null);
      observed.add(
          new ObservedPartition(p.name(), p.lowerBound(), p.upperBound(), !detached, archivedAt));
    }
    TableDefinition table = run.table();
    return ArchivalPlanner.plan(
        w,
        observed,
        pinned(partitions),
        table.policy().settlementLag(),
        table.policy().readerGrace(),
        maxWindows,
        run.now());
  }

  private Set<String> pinned(List<PartitionInfo> partitions) {
    List<ReaderPin> pins = run.hot().pins().active(run.name(), run.now());
    Set<String> names = new HashSet<>();
    for (PartitionInfo p : partitions) {
      if (pins.stream().anyMatch(pin -> pin.overlaps(p.lowerBound(), p.upperBound()))) {
        names.add(p.name());
      }
    }
    return names;
  }

  /** Step 2's refusal: detached leftovers that are not the next window are named, not touched. */
  private void refuseStranded(List<ObservedPartition> stranded) {
    if (stranded.isEmpty() || share.failure() != null) {
      return;
    }
    String names = stranded.stream().map(ObservedPartition::name).collect(Collectors.joining(", "));
    share =
        share.failed(
            new MeterStoreException(
                ErrorKind.INVARIANT_VIOLATED,
                "Cannot archive table "
                    + run.name()
                    + " past "
                    + stranded.get(0).from()
                    + ": partition(s) "
                    + names
                    + " are detached but neither the next window nor archived (or straddle the"
                    + " watermark); their rows are in neither tier's live view. Re-attach them, or"
                    + " archive them by hand; they are never dropped"));
  }
}
