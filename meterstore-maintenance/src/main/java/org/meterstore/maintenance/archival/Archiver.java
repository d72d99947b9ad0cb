package org.meterstore.maintenance.archival;

import io.opentelemetry.api.OpenTelemetry;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Counts;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.window.TierWatermark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a table's due windows from PostgreSQL to Iceberg (DESIGN § 6), one run at a time:
 *
 * <ol>
 *   <li>take the table's lease (a session advisory lock on its own connection, with an epoch that
 *       every commit carries and that is checked just before each commit); another holder makes the
 *       run {@link Status#LEASE_CONTENDED}, which still checks the invariant;
 *   <li>resume a partition an interrupted run left detached when it is the next window, and refuse
 *       (naming them) detached partitions that are not;
 *   <li>check schema drift ({@link Status#QUARANTINED}) and that the archival step recorded in both
 *       tiers is the configured one ({@code CONFIG});
 *   <li>plan the due windows ({@link ArchivalPlanner}: {@code settlement_lag}, empty-gap jump,
 *       {@code maxWindows});
 *   <li>detach each window's partition under {@code ddl_lock_timeout} ({@link Status#DEFERRED} on
 *       timeout), or concurrently where configured, finishing any half-detached partition with
 *       {@code FINALIZE};
 *   <li>stream its rows with a keyset cursor into {@link ColdTable#archive}, which commits them
 *       with the new W and a digest, then re-check that digest against the source partition (a
 *       mismatch is {@code INVARIANT_VIOLATED} and the partition is never dropped);
 *   <li>leave it detached; reclaim detached partitions whose covering commit is older than {@code
 *       reader_grace} and that no reader pin overlaps, re-checking the digest first (a drop that
 *       cannot get its lock skips that partition);
 *   <li>when enabled, compact the small files of closed months ({@link ColdTable#compact}), then
 *       expire snapshots when enabled;
 *   <li>verify the invariant: no hot row below W.
 * </ol>
 *
 * <p>Any line of a run may crash: the state it leaves is one a later run finishes (a detached but
 * uncommitted partition is resumed; a committed one is reclaimed). Thread-safe: runs of different
 * tables may proceed in parallel, runs of one table exclude each other through the lease. Nothing
 * here reads a clock: every run takes the caller's {@code now}. A run never throws for what a
 * table's state or its storage does; it reports it in a {@link TableOutcome}.
 */
public final class Archiver {
  private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);

  private final HotStore hot;
  private final ColdStore cold;
  private final ArchivalSettings settings;
  private final ArchivalMetrics metrics;

  /**
   * An archiver over both tiers. The stores stay the caller's to close.
   *
   * @param otel where the archival and tiering metrics go; {@link OpenTelemetry#noop()} for none
   */
  public Archiver(HotStore hot, ColdStore cold, ArchivalSettings settings, OpenTelemetry otel) {
    this(hot, cold, settings, new ArchivalMetrics(Objects.requireNonNull(otel, "otel")));
  }

  /** An archiver recording into instruments shared with other archivers. */
  public Archiver(
      HotStore hot, ColdStore cold, ArchivalSettings settings, ArchivalMetrics metrics) {
    this.hot = Objects.requireNonNull(hot, "hot");
    this.cold = Objects.requireNonNull(cold, "cold");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  /** {@link #run(TableDefinition, Instant, int, boolean)} without snapshot expiry. */
  public TableOutcome run(TableDefinition table, Instant now, int maxWindows) {
    return run(table, now, maxWindows, false);
  }

  /**
   * One archival run of {@code table} at {@code now}.
   *
   * @param table a table created in both tiers
   * @param now the caller's current instant (UTC): decides which windows are due and how old a
   *     commit is; stamped as {@code meterstore.archived-at}
   * @param maxWindows the most windows this run commits, at least 1
   * @param expireSnapshots whether to expire cold snapshots by the table's policy after archiving
   *     (only while the lease is held)
   * @return what the run did; never null
   * @throws IllegalArgumentException for {@code maxWindows < 1}
   */
  public TableOutcome run(
      TableDefinition table, Instant now, int maxWindows, boolean expireSnapshots) {
    return run(table, now, maxWindows, expireSnapshots, false);
  }

  /**
   * {@link #run(TableDefinition, Instant, int, boolean)}, then, when {@code compact} and while the
   * lease is held, the compaction of the table's closed months ({@link ColdTable#compact}), before
   * snapshot expiry; what it rewrote is {@code counts().compaction()}.
   */
  public TableOutcome run(
      TableDefinition table,
      Instant now,
      int maxWindows,
      boolean expireSnapshots,
      boolean compact) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(now, "now");
    if (maxWindows < 1) {
      throw new IllegalArgumentException("Invalid maxWindows: " + maxWindows + " (at least 1)");
    }
    ColdTable coldTable;
    Optional<ArchivalLease> lease;
    try {
      LeasedRun.requireHotArchivalStep(hot, table);
      coldTable = cold.table(table);
      lease = hot.archival().tryLease(table, settings.holder(), now);
    } catch (MeterStoreException e) {
      return failed(table.name(), e);
    }
    if (lease.isEmpty()) {
      return observeContended(table, coldTable, now);
    }
    try (ArchivalLease held = lease.get()) {
      LeasedRun run = new LeasedRun(hot, coldTable, table, now, held, settings, metrics);
      TableOutcome result = run.execute(maxWindows, expireSnapshots, compact);
      if (result.status() == Status.FAILED) {
        metrics.failed(table.name());
      }
      return result;
    }
  }

  /** Another session holds the lease: mutate nothing, but still check the invariant. */
  private TableOutcome observeContended(TableDefinition table, ColdTable coldTable, Instant now) {
    LOG.debug("Archival lease of {} is held elsewhere", table.name());
    try {
      Instant w = new TierWatermark(hot, coldTable, table).read();
      long below = checkInvariant(hot, metrics, table, w, now);
      return new TableOutcome(
          table.name(),
          Status.LEASE_CONTENDED,
          Counts.NONE,
          Optional.of(w),
          OptionalLong.of(below),
          false,
          Optional.empty());
    } catch (MeterStoreException e) {
      return failed(table.name(), e);
    }
  }

  private TableOutcome failed(String table, MeterStoreException e) {
    TableOutcome outcome = TableOutcome.failed(table, e);
    // One line per failed table comes from the maintenance cycle or the caller; the trace here.
    LOG.debug("Archival run of {} ended {}", table, outcome.status(), e);
    if (outcome.status() == Status.FAILED) {
      metrics.failed(table);
    }
    return outcome;
  }

  /**
   * Counts hot rows below {@code w} (step 8) and records the tiering gauges.
   *
   * @return the rows below W: 0 unless the invariant is violated
   */
  static long checkInvariant(
      HotStore hot, ArchivalMetrics metrics, TableDefinition table, Instant w, Instant now) {
    long below = hot.partitions().countRowsBelow(table, w);
    List<PartitionInfo> partitions = hot.partitions().list(table);
    long ahead =
        partitions.stream().filter(p -> p.isAttached() && p.upperBound().isAfter(now)).count();
    double lag = (now.toEpochMilli() - w.toEpochMilli()) / 1000.0;
    metrics.observed(table.name(), below, lag, ahead);
    if (below > 0) {
      LOG.error(
          "Invariant violated for table {}: {} hot rows lie below the watermark {}",
          table.name(),
          below,
          w);
    }
    return below;
  }
}
