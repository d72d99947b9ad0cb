package org.meterstore.maintenance.archival;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.CompactionResult;
import org.meterstore.cold.commit.ImportWindowResult;
import org.meterstore.cold.outage.StorageFailures;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.CompactionReport;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Counts;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.window.TierWatermark;
import org.meterstore.maintenance.window.WindowStep;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one table while its lease is held: steps 2 to 8 of {@link Archiver}. It keeps what the
 * run did so far, so that a failure half way still reports the windows already committed. Used
 * once, on one thread.
 */
final class LeasedRun {
  private static final Logger LOG = LoggerFactory.getLogger(LeasedRun.class);

  private final HotStore hot;
  private final ColdTable cold;
  private final TableDefinition table;
  private final Instant now;
  private final ArchivalLease lease;
  private final ArchivalSettings settings;
  private final ArchivalMetrics metrics;
  private final TierWatermark watermark;
  private final FaultHook faults = FaultInjection.current();

  /**
   * Months one run compacts at most: a backlog of years is worked off a year per cycle, so that a
   * cycle stays short.
   */
  static final int MAX_COMPACTED_MONTHS = 12;

  private int windows;
  private long rows;
  private int dropped;
  private int orphans;
  private int expired;
  private boolean deferred;
  private boolean leaseLost;
  private CompactionReport compaction = CompactionReport.NONE;

  /** The hot floor as this run last recorded it; null until recorded (nothing is reclaimed). */
  private Instant floor;

  private MeterStoreException failure;

  LeasedRun(
      HotStore hot,
      ColdTable cold,
      TableDefinition table,
      Instant now,
      ArchivalLease lease,
      ArchivalSettings settings,
      ArchivalMetrics metrics) {
    this.hot = hot;
    this.cold = cold;
    this.table = table;
    this.now = now;
    this.lease = lease;
    this.settings = settings;
    this.metrics = metrics;
    this.watermark = new TierWatermark(hot, cold, table);
  }

  TableOutcome execute(int maxWindows, boolean expireSnapshots, boolean compact) {
    Instant w = null;
    OptionalLong below = OptionalLong.empty();
    try {
      faults.reached(FaultPoint.AFTER_LEASE, table.name(), null);
      cold.requireNoDrift();
      requireArchivalStep();
      List<PartitionInfo> partitions = hot.partitions().list(table);
      List<ArchivalCommit> commits = cold.archivalCommits();
      Instant current = watermark.read();
      // records the floor at the start too: repairs one a crash after a commit left behind
      floor = watermark.recordCommitted(current);
      ArchivalPlan plan = plan(current, partitions, commits, maxWindows);
      archiveWindows(plan, partitions);
      if (!leaseLost && failure == null) {
        reclaim(plan.reclaimable(), commits);
      }
      refuseStranded(plan.stranded());
      if (compact && !leaseLost && failure == null) {
        compact();
      }
      if (expireSnapshots && !leaseLost) {
        expired =
            cold.expireSnapshots(now, settings.expiryPolicy(table.policy()), awaitingReclaim())
                .expiredSnapshotIds()
                .size();
      }
      w = watermark.read();
      below = OptionalLong.of(Archiver.checkInvariant(hot, metrics, table, w, now));
    } catch (MeterStoreException e) {
      failure = failure == null ? e : failure;
    } catch (RuntimeException e) {
      MeterStoreException outage = StorageFailures.classify("archive table " + table.name(), e);
      failure =
          failure != null
              ? failure
              : outage != null
                  ? outage
                  : new MeterStoreException(
                      ErrorKind.STORAGE, "Cannot archive table " + table.name() + ": " + e, e);
    }
    return result(w, below);
  }

  private TableOutcome result(Instant w, OptionalLong below) {
    Status status;
    if (failure != null) {
      status = Status.ofFailure(failure);
      // One line per failed table comes from the maintenance cycle or the caller; the trace here.
      LOG.debug("Archival run of {} ended {}", table.name(), status, failure);
    } else if (leaseLost) {
      status = Status.LEASE_CONTENDED;
    } else if (deferred) {
      status = Status.DEFERRED;
    } else {
      status = windows > 0 ? Status.ARCHIVED : Status.NOTHING_DUE;
    }
    Counts counts = Counts.archival(windows, rows, orphans, dropped, expired, compaction);
    return new TableOutcome(
        table.name(),
        status,
        counts,
        Optional.ofNullable(w),
        below,
        true,
        Optional.ofNullable(failure));
  }

  /** Step 3: both tiers must record the configured archival step. */
  private void requireArchivalStep() {
    requireHotArchivalStep(hot, table);
    Optional<Duration> inCold = cold.recordedArchivalStep();
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
          detached
              ? covering(commits, p.lowerBound(), p.upperBound())
                  .map(ArchivalCommit::archivedAt)
                  .orElse(null)
              : null;
      observed.add(
          new ObservedPartition(p.name(), p.lowerBound(), p.upperBound(), !detached, archivedAt));
    }
    return ArchivalPlanner.plan(
        w,
        observed,
        pinned(partitions),
        table.policy().settlementLag(),
        table.policy().readerGrace(),
        maxWindows,
        now);
  }

  private Set<String> pinned(List<PartitionInfo> partitions) {
    List<ReaderPin> pins = hot.pins().active(table.name(), now);
    Set<String> names = new HashSet<>();
    for (PartitionInfo p : partitions) {
      if (pins.stream().anyMatch(pin -> pin.overlaps(p.lowerBound(), p.upperBound()))) {
        names.add(p.name());
      }
    }
    return names;
  }

  /** Steps 5 and 6 for each planned window, stopping at the first that cannot proceed. */
  private void archiveWindows(ArchivalPlan plan, List<PartitionInfo> partitions) {
    for (ArchivalWindow window : plan.windows()) {
      if (!lease.isHeld()) {
        leaseLost = true;
        LOG.warn("Archival lease of {} lost before window {}", table.name(), window.partition());
        return;
      }
      PartitionInfo partition =
          partitions.stream().filter(p -> p.name().equals(window.partition())).findFirst().get();
      if (!detach(partition)) {
        return;
      }
      if (!archive(window)) {
        return;
      }
    }
  }

  /** Detaches (or finishes detaching) a window's partition; false when it had to defer. */
  private boolean detach(PartitionInfo partition) {
    if (partition.state() != PartitionState.DETACHED) {
      DetachMode mode =
          partition.state() == PartitionState.DETACH_PENDING
              ? DetachMode.CONCURRENTLY
              : settings.detachMode();
      try {
        hot.partitions().detach(table, partition.name(), mode);
      } catch (MeterStoreException e) {
        if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
          throw e;
        }
        deferred = true;
        metrics.deferred(table.name());
        LOG.info("Archival of {} deferred: {}", table.name(), e.getMessage());
        return false;
      }
    }
    faults.reached(FaultPoint.AFTER_DETACH, table.name(), partition.name());
    return true;
  }

  /** Streams and commits one detached window through the {@link WindowStep}; false to stop. */
  private boolean archive(ArchivalWindow window) {
    long started = System.nanoTime();
    String name = window.partition();
    WindowStep.Outcome outcome =
        new WindowStep(cold, table, watermark)
            .commit(
                new ArchiveRequest(window.from(), window.to(), now, lease.epoch()),
                new PartitionSource(name),
                lease::isHeld);
    ArchiveResult result = outcome.archive();
    if (!outcome.committed()) {
      leaseLost = true;
      LOG.warn(
          "Archival of {} window {} not committed: {} (W {})",
          table.name(),
          name,
          result.status(),
          result.watermark());
      return false;
    }
    floor = outcome.floor();
    windows++;
    rows += result.digest().rowCount();
    orphans += window.resumed() ? 1 : 0;
    metrics.window(
        table.name(),
        result.digest().rowCount(),
        (System.nanoTime() - started) / 1e9,
        window.resumed());
    faults.reached(FaultPoint.AFTER_COMMIT, table.name(), name);
    return true;
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
      try (PrefetchedRows source =
          new PrefetchedRows(
              boundary ->
                  hot.archival().rows(table, partition, settings.sourceChunkRows(), boundary),
              settings.sourceChunkRows(),
              chunk -> faults.reached(FaultPoint.BETWEEN_CHUNKS, table.name(), partition),
              "meterstore-archival-reader-" + table.name())) {
        return new ImportWindowResult(target.archive(request, source, leaseHeld), List.of());
      }
    }

    @Override
    public ContentDigest expected(List<WriteOutcome> outcomes) {
      return hot.archival().digest(table, partition);
    }

    @Override
    public String describe() {
      return "the source partition " + partition;
    }
  }

  /**
   * Rewrites the small files of closed months ({@link ColdTable#compact}) under the lease: asked
   * again just before the commit, so a run whose lease ended cannot commit. A failure is the run's
   * failure; nothing was committed then.
   */
  private void compact() {
    long started = System.nanoTime();
    CompactionResult r =
        cold.compact(
            now,
            lease.epoch(),
            MAX_COMPACTED_MONTHS,
            () -> {
              faults.reached(FaultPoint.BEFORE_COMPACTION_COMMIT, table.name(), null);
              return lease.isHeld();
            });
    if (r.status() == CompactionResult.Status.LEASE_LOST) {
      leaseLost = true;
      LOG.warn("Archival lease of {} lost before its compaction committed", table.name());
      return;
    }
    if (r.committed()) {
      compaction =
          new CompactionReport(
              r.partitionsCompacted(),
              r.filesRewritten(),
              r.filesWritten(),
              r.bytesBefore(),
              r.bytesAfter());
      metrics.compacted(table.name(), compaction, (System.nanoTime() - started) / 1e9);
    }
  }

  /** Step 7: drops reclaimable partitions whose covering commit still matches them. */
  /**
   * The archival commits whose partitions are still detached: expiry must keep them, or the
   * partitions' reclamation finds no digest to re-check and never drops them.
   */
  private Set<Long> awaitingReclaim() {
    List<ArchivalCommit> commits = cold.archivalCommits();
    Set<Long> keep = new HashSet<>();
    for (PartitionInfo p : hot.partitions().list(table)) {
      if (p.state() != PartitionState.ATTACHED) {
        covering(commits, p.lowerBound(), p.upperBound()).ifPresent(c -> keep.add(c.snapshotId()));
      }
    }
    return keep;
  }

  private void reclaim(List<ObservedPartition> reclaimable, List<ArchivalCommit> commits) {
    for (ObservedPartition p : reclaimable) {
      faults.reached(FaultPoint.BEFORE_DROP, table.name(), p.name());
      if (floor == null || p.to().isAfter(floor)) {
        LOG.info("Keeping {} until the hot floor covers it (floor {})", p.name(), floor);
        continue;
      }
      if (!lease.isHeld()) {
        leaseLost = true;
        return;
      }
      ContentDigest committed =
          covering(commits, p.from(), p.to()).map(ArchivalCommit::digest).orElse(null);
      ContentDigest digest = hot.archival().digest(table, p.name());
      if (committed == null || !committed.equals(digest)) {
        failure = digestMismatch(p.name(), committed, digest, "kept");
        continue;
      }
      try {
        if (hot.partitions().drop(table, p.name())) {
          dropped++;
          metrics.dropped(table.name());
        }
      } catch (MeterStoreException e) {
        if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
          throw e;
        }
        LOG.info("Reclaiming {} skipped this cycle: {}", p.name(), e.getMessage());
      }
    }
  }

  /**
   * The first archival commit (in sequence order) whose window covers {@code [lower, upper)}. A
   * commit expired from the metadata is unknown here, which keeps its partition (never the
   * reverse).
   */
  private static Optional<ArchivalCommit> covering(
      List<ArchivalCommit> commits, Instant lower, Instant upper) {
    return commits.stream().filter(c -> c.covers(lower, upper)).findFirst();
  }

  /** Step 2's refusal: detached leftovers that are not the next window are named, not touched. */
  private void refuseStranded(List<ObservedPartition> stranded) {
    if (stranded.isEmpty() || failure != null) {
      return;
    }
    String names = stranded.stream().map(ObservedPartition::name).collect(Collectors.joining(", "));
    failure =
        new MeterStoreException(
            ErrorKind.INVARIANT_VIOLATED,
            "Cannot archive table "
                + table.name()
                + " past "
                + stranded.get(0).from()
                + ": partition(s) "
                + names
                + " are detached but neither the next window nor archived (or straddle the"
                + " watermark); their rows are in neither tier's live view. Re-attach them, or"
                + " archive them by hand; they are never dropped");
  }

  private MeterStoreException digestMismatch(
      String partition, ContentDigest committed, ContentDigest source, String what) {
    return new MeterStoreException(
        ErrorKind.INVARIANT_VIOLATED,
        "Cannot archive partition "
            + partition
            + " of table "
            + table.name()
            + ": the cold commit carries "
            + (committed == null ? "no digest" : committed.toSummaryValue())
            + " but the source partition holds "
            + source.toSummaryValue()
            + "; the partition is "
            + what
            + " detached and never dropped until an operator resolves it");
  }
}
