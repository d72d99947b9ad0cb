package org.meterstore.api.table;

import java.time.Duration;
import java.time.Period;
import org.meterstore.api.MeterStoreException;

/**
 * How one table moves between the tiers and how long its history is kept.
 *
 * @param archivalStep width of one hot partition and one archival window; a whole number of minutes
 *     that divides a day, or a whole number of days up to 31 (default 1 day). Windows lie on a UTC
 *     grid counted from the epoch.
 * @param partitionHeadroom how far beyond the newest written interval partitions are pre-created
 *     (default 14 days); at least one step
 * @param settlementLag how long after its end a window stays correctable in PostgreSQL before it is
 *     due for archival (default 30 days); zero or more
 * @param readerGrace how long an archived, detached partition is kept for queries planned before
 *     the archival (default 1 hour); zero or more
 * @param snapshotRetention how long Iceberg snapshots are kept when expiry is enabled (default 10
 *     years)
 * @param minSnapshotsToKeep the fewest snapshots expiry leaves (default 20); at least 1
 */
public record TablePolicy(
    Duration archivalStep,
    Duration partitionHeadroom,
    Duration settlementLag,
    Duration readerGrace,
    Period snapshotRetention,
    int minSnapshotsToKeep) {

  private static final long MINUTES_PER_DAY = 1440;

  /** The defaults listed on each component. */
  public static final TablePolicy DEFAULTS =
      new TablePolicy(
          Duration.ofDays(1),
          Duration.ofDays(14),
          Duration.ofDays(30),
          Duration.ofHours(1),
          Period.ofYears(10),
          20);

  /** Checks every component. */
  public TablePolicy {
    requireStep(archivalStep);
    requireNonNegative("partition_headroom", partitionHeadroom);
    if (partitionHeadroom.compareTo(archivalStep) < 0) {
      throw MeterStoreException.invalid(
          "partition_headroom", partitionHeadroom, "at least one archival_step " + archivalStep);
    }
    requireNonNegative("settlement_lag", settlementLag);
    requireNonNegative("reader_grace", readerGrace);
    if (snapshotRetention == null || snapshotRetention.isNegative()) {
      throw MeterStoreException.invalid("snapshot_retention", snapshotRetention, "zero or more");
    }
    if (minSnapshotsToKeep < 1) {
      throw MeterStoreException.invalid("min_snapshots_to_keep", minSnapshotsToKeep, "at least 1");
    }
  }

  private static void requireStep(Duration step) {
    String rule = "whole minutes dividing a day, or 1 to 31 whole days";
    if (step == null
        || step.isNegative()
        || step.isZero()
        || step.toSecondsPart() != 0
        || step.toNanosPart() != 0) {
      throw MeterStoreException.invalid("archival_step", step, rule);
    }
    long minutes = step.toMinutes();
    boolean divides = minutes <= MINUTES_PER_DAY && MINUTES_PER_DAY % minutes == 0;
    boolean days = minutes % MINUTES_PER_DAY == 0 && minutes / MINUTES_PER_DAY <= 31;
    if (!divides && !days) {
      throw MeterStoreException.invalid("archival_step", step, rule);
    }
  }

  private static void requireNonNegative(String field, Duration d) {
    if (d == null || d.isNegative()) {
      throw MeterStoreException.invalid(field, d, "a duration of zero or more");
    }
  }

  public TablePolicy withArchivalStep(Duration step) {
    return new TablePolicy(
        step, partitionHeadroom, settlementLag, readerGrace, snapshotRetention, minSnapshotsToKeep);
  }

  public TablePolicy withPartitionHeadroom(Duration headroom) {
    return new TablePolicy(
        archivalStep, headroom, settlementLag, readerGrace, snapshotRetention, minSnapshotsToKeep);
  }

  public TablePolicy withSettlementLag(Duration lag) {
    return new TablePolicy(
        archivalStep, partitionHeadroom, lag, readerGrace, snapshotRetention, minSnapshotsToKeep);
  }

  public TablePolicy withReaderGrace(Duration grace) {
    return new TablePolicy(
        archivalStep,
        partitionHeadroom,
        settlementLag,
        grace,
        snapshotRetention,
        minSnapshotsToKeep);
  }

  public TablePolicy withSnapshotRetention(Period retention, int minToKeep) {
    return new TablePolicy(
        archivalStep, partitionHeadroom, settlementLag, readerGrace, retention, minToKeep);
  }
}
