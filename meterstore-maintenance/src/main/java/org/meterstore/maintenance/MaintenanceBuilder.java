package org.meterstore.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.Period;
import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.maintenance.archival.ArchivalSettings;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.archival.SnapshotRetention;

/**
 * Configures a catalog's maintenance loop (DESIGN § 6) and then runs one cycle ({@link #runOnce})
 * or spawns the loop ({@link #spawn()}). Nothing runs and no thread exists before either call.
 *
 * <p>One cycle visits every table in turn: it archives the due windows (at most {@link
 * #maxWindowsPerCycle} per table), compacts small cold files when enabled, expires snapshots when
 * enabled and the table's lease was won, checks the invariant, and pre-creates the hot partitions
 * of {@code partition_headroom}, then removes orphan files when {@link #removeOrphanFiles} is set;
 * a table that fails becomes a row and the others are still maintained. Then, once, the retention
 * sweep when {@link #anonymiseAfter} is set.
 *
 * <p>Defaults: interval 15 minutes, 8 windows per table per cycle, compaction on, snapshot expiry
 * off, orphan-file removal off, retention sweep off, detach CONCURRENTLY, 50 000 rows per source
 * query, the wall clock. Not thread-safe; every setter validates eagerly ({@code INVALID_INPUT})
 * and returns this builder.
 */
public final class MaintenanceBuilder {
  private final Maintenance catalog;
  private Duration interval = Duration.ofMinutes(15);
  private int maxWindowsPerCycle = 8;
  private boolean expireSnapshots;
  private boolean compact = true;
  private Duration orphanMinAge;
  private RetentionJob retention;
  private RetentionSweep sweep;
  private ArchivalSettings settings = ArchivalSettings.defaults();
  private InstantSource clock = WallClock.INSTANCE;

  MaintenanceBuilder(Maintenance catalog) {
    this.catalog = catalog;
  }

  /** The pause between the end of one cycle and the start of the next; positive. */
  public MaintenanceBuilder interval(Duration value) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw MeterStoreException.invalid("interval", value, "a positive duration");
    }
    this.interval = value;
    return this;
  }

  /**
   * The most windows one cycle archives per table, at least 1 (default 8): a store that was down
   * for a month catches up over several cycles instead of holding one for hours.
   */
  public MaintenanceBuilder maxWindowsPerCycle(int value) {
    if (value < 1) {
      throw MeterStoreException.invalid("maxWindowsPerCycle", value, "at least 1");
    }
    this.maxWindowsPerCycle = value;
    return this;
  }

  /**
   * Whether to expire cold snapshots by each table's policy (default false: retention of snapshots
   * is a compliance decision). Only the replica that won a table's lease expires it.
   */
  public MaintenanceBuilder expireSnapshots(boolean value) {
    this.expireSnapshots = value;
    return this;
  }

  /**
   * Whether to compact each table's cold files (default true: one location's month read from one
   * file instead of a file per archival day or import chunk, see {@code docs/operations.md},
   * "Compaction"): after archiving, while its lease is held, the small files of every month that
   * ends at or before W (at most twelve months per table per cycle) are rewritten into files near
   * {@code [cold] target_file_size} in one Iceberg rewrite commit that carries W unchanged and is
   * committed only after the new files' digest, read back, equals the rewritten rows'. The month W
   * lies in is left to later cycles. Readers of older snapshots keep the old files, which only
   * snapshot expiry removes; see {@code docs/operations.md} for what it does to merge elision.
   */
  public MaintenanceBuilder compact(boolean value) {
    this.compact = value;
    return this;
  }

  /** The least age of an orphan file that removal deletes: younger files may belong to a commit. */
  public static final Duration MIN_ORPHAN_AGE = Duration.ofHours(1);

  /**
   * Removes each table's orphan files once per cycle (off by default): the files under the table's
   * location that no retained snapshot or metadata file references — data files of commits that
   * never landed, debris of foreign tools — last modified before {@code now − minAge}. It runs
   * after the table's archival run and only when that run won the table's lease, so of several
   * replicas one does it per cycle; the files of a commit in flight are younger than {@code minAge}
   * and never candidates. The count is the row's {@code orphanFilesRemoved}; a removal that fails
   * makes the row {@code FAILED} with the archival counts kept (files deleted before the failure
   * stay deleted: each was orphaned). Run {@code meterstore orphans} first to see what it would
   * delete.
   *
   * @param minAge at least {@link #MIN_ORPHAN_AGE}
   */
  public MaintenanceBuilder removeOrphanFiles(Duration minAge) {
    if (minAge == null || minAge.compareTo(MIN_ORPHAN_AGE) < 0) {
      throw MeterStoreException.invalid(
          "orphan minimum age",
          minAge,
          "at least " + MIN_ORPHAN_AGE + " to delete: younger files may belong to a commit");
    }
    this.orphanMinAge = minAge;
    return this;
  }

  /**
   * Runs the retention sweep once per cycle, after every table (off by default: erasing a linkage
   * is irreversible). By default the sweep erases due mappings from the hot database's subject
   * registry ({@code HotStore.subjects()}); {@link #retentionSweep} replaces it.
   *
   * @param reason the legal reason recorded with every erasure, e.g. {@code "§ 60 Abs. 6 MsbG"}
   * @param actor who erases, e.g. {@code "retention-job"}
   */
  public MaintenanceBuilder anonymiseAfter(Retention value, String reason, String actor) {
    Objects.requireNonNull(value, "retention");
    if (reason == null || reason.isBlank()) {
      throw MeterStoreException.invalid("retention reason", reason, "not blank");
    }
    if (actor == null || actor.isBlank()) {
      throw MeterStoreException.invalid("retention actor", actor, "not blank");
    }
    this.retention = new RetentionJob(value, reason, actor);
    return this;
  }

  /** Replaces the default retention sweep (the hot database's subject registry). */
  public MaintenanceBuilder retentionSweep(RetentionSweep value) {
    this.sweep = Objects.requireNonNull(value, "sweep");
    return this;
  }

  /**
   * How partitions are detached (default {@link DetachMode#CONCURRENTLY}, which inserts do not wait
   * for; {@link DetachMode#PLAIN} makes them wait while it queues behind a long reader, at most
   * {@code ddl_lock_timeout}); a half-detached partition is finished with {@code FINALIZE} in
   * either mode.
   */
  public MaintenanceBuilder detachMode(DetachMode value) {
    this.settings = settings.withDetachMode(Objects.requireNonNull(value, "detachMode"));
    return this;
  }

  /** The detach mode this builder will use. */
  public DetachMode detachMode() {
    return settings.detachMode();
  }

  /** Rows per keyset query over a partition being archived (default 50 000), at least 1. */
  public MaintenanceBuilder sourceChunkRows(int value) {
    this.settings = settings.withSourceChunkRows(value);
    return this;
  }

  /**
   * The snapshot retention expiry uses for every table (default: each table's {@code
   * snapshot_retention} and {@code min_snapshots_to_keep}, from its policy or the configuration
   * file). A snapshot is old when MeterStore stamped it (its commit's {@code now}) before {@code
   * now - retention}; a foreign snapshot takes the stamp of its nearest MeterStore ancestor. Takes
   * effect only with {@link #expireSnapshots(boolean) expireSnapshots(true)}.
   *
   * @param retention zero or more
   * @param minSnapshotsToKeep the fewest snapshots left, at least 1
   */
  public MaintenanceBuilder snapshotRetention(Period retention, int minSnapshotsToKeep) {
    this.settings =
        settings.withSnapshotRetention(new SnapshotRetention(retention, minSnapshotsToKeep));
    return this;
  }

  /** The lease holder recorded in {@code archival_leases} (default {@code host:pid}). */
  public MaintenanceBuilder holder(String value) {
    this.settings = settings.withHolder(value);
    return this;
  }

  /** Where a spawned loop reads each cycle's {@code now} (default the wall clock). */
  public MaintenanceBuilder clock(InstantSource value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /**
   * Runs one cycle at {@code now} on the caller's thread (for tests and the CLI).
   *
   * @return one row per table, then the retention row when configured
   * @throws MeterStoreException nothing a table or the sweep does makes this throw; their failures
   *     are rows of the outcome
   */
  public MaintenanceOutcome runOnce(Instant now) {
    return cycle().run(Objects.requireNonNull(now, "now"));
  }

  /**
   * Starts the loop on one daemon thread: a first cycle at once, then one per {@link #interval}
   * after each ends, each at {@code clock.instant()}.
   *
   * @return the handle that owns the loop; closing it stops the loop after the cycle in flight
   */
  public MaintenanceHandle spawn() {
    return new MaintenanceHandle(cycle(), interval, clock);
  }

  private MaintenanceCycle cycle() {
    RetentionSweep sweep = this.sweep;
    if (retention != null && sweep == null) {
      sweep = registrySweep(catalog);
    }
    Archiver archiver = new Archiver(catalog.hot(), catalog.cold(), settings, catalog.metrics());
    return new MaintenanceCycle(
        catalog,
        archiver,
        new MaintenanceCycle.Steps(maxWindowsPerCycle, expireSnapshots, compact, orphanMinAge),
        retention,
        sweep);
  }

  /**
   * The default sweep: the hot database's subject registry, in bounded batches so one cycle cannot
   * hold the loop for long; what a cycle leaves is erased by the next (the sweep is resumable).
   */
  static RetentionSweep registrySweep(Maintenance catalog) {
    return (retention, reason, actor, now) ->
        catalog
            .hot()
            .subjects()
            .sweep(retention, reason, actor, now, SWEEP_BATCH_ROWS, SWEEP_BATCHES_PER_CYCLE)
            .erased();
  }

  /** Mappings deleted per sweep transaction. */
  static final int SWEEP_BATCH_ROWS = 1_000;

  /** Sweep transactions per cycle: at most 100,000 mappings, the rest next cycle. */
  static final int SWEEP_BATCHES_PER_CYCLE = 100;

  /** The configured retention sweep call. */
  record RetentionJob(Retention retention, String reason, String actor) {}
}
