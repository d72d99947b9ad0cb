package org.meterstore.maintenance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance cycle: the tables in turn, then the retention sweep. Sequential on purpose: each
 * step sees the state the previous one left, and twenty archivals at once would turn a background
 * job into a load spike on the database it exists to relieve. Nothing a table does escapes as an
 * exception: it becomes that table's row.
 */
final class MaintenanceCycle {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceCycle.class);

  private final Maintenance catalog;
  private final Archiver archiver;
  private final Steps steps;
  private final MaintenanceBuilder.RetentionJob retention;
  private final RetentionSweep sweep;

  MaintenanceCycle(
      Maintenance catalog,
      Archiver archiver,
      Steps steps,
      MaintenanceBuilder.RetentionJob retention,
      RetentionSweep sweep) {
    this.catalog = catalog;
    this.archiver = archiver;
    this.steps = steps;
    this.retention = retention;
    this.sweep = sweep;
  }

  /**
   * What a cycle does per table besides archiving: its window budget, expiry, compaction, and the
   * orphan files' minimum age (null: the step is off).
   */
  record Steps(int maxWindows, boolean expireSnapshots, boolean compact, Duration orphanMinAge) {}

  MaintenanceOutcome run(Instant now) {
    List<TableOutcome> rows = new ArrayList<>();
    for (TableDefinition table : catalog.tables()) {
      rows.add(maintain(table, now));
    }
    if (retention != null) {
      rows.add(sweep(now));
    }
    MaintenanceOutcome outcome = new MaintenanceOutcome(now, rows);
    for (TableOutcome row : outcome.unhealthy()) {
      LOG.error(
          "Maintenance of {} at {}: {}{}{}",
          row.table(),
          now,
          row.status(),
          row.invariantViolations().orElse(0) > 0
              ? ", " + row.invariantViolations().getAsLong() + " rows below W"
              : "",
          row.failure().map(f -> ": " + f.getMessage()).orElse(""));
    }
    return outcome;
  }

  private TableOutcome maintain(TableDefinition table, Instant now) {
    try {
      TableOutcome row =
          archiver.run(table, now, steps.maxWindows(), steps.expireSnapshots(), steps.compact());
      if (row.failure().filter(f -> f.kind() == ErrorKind.CONFIG).isEmpty()) {
        ensureHeadroom(table, now);
      }
      if (steps.orphanMinAge() != null && row.leaseWon() && !row.failed()) {
        row = removeOrphanFiles(table, row, now);
      }
      return row;
    } catch (RuntimeException e) {
      MeterStoreException failure =
          e instanceof MeterStoreException m
              ? m
              : new MeterStoreException(
                  ErrorKind.STORAGE, "Cannot maintain table " + table.name() + ": " + e, e);
      return TableOutcome.failed(table.name(), failure);
    }
  }

  /**
   * Pre-creates the partitions writers will need, after archival (so a table whose configuration no
   * longer matches its stored archival step gets no partitions on the wrong grid); a lock timeout
   * only postpones it.
   */
  private void ensureHeadroom(TableDefinition table, Instant now) {
    try {
      catalog.hot().partitions().ensureHeadroom(table, now);
    } catch (MeterStoreException e) {
      if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
        throw e;
      }
      LOG.info("Partition headroom of {} postponed: {}", table.name(), e.getMessage());
    }
  }

  /**
   * The optional orphan-file step, after a run that held the table's lease (one replica per cycle);
   * a failure keeps the run's counts, W and check and makes the row {@code FAILED}.
   */
  private TableOutcome removeOrphanFiles(TableDefinition table, TableOutcome row, Instant now) {
    try {
      int removed =
          catalog
              .cold()
              .table(table)
              .removeOrphanFiles(now, steps.orphanMinAge(), false)
              .deleted()
              .size();
      if (removed > 0) {
        LOG.info("Removed {} orphan files of {}", removed, table.name());
      }
      return new TableOutcome(
          row.table(),
          row.status(),
          row.counts().withOrphanFilesRemoved(removed),
          row.watermark(),
          row.invariantViolations(),
          row.leaseWon(),
          row.failure());
    } catch (RuntimeException e) {
      MeterStoreException failure =
          e instanceof MeterStoreException m
              ? m
              : new MeterStoreException(
                  ErrorKind.STORAGE,
                  "Cannot remove the orphan files of table " + table.name() + ": " + e,
                  e);
      return new TableOutcome(
          row.table(),
          TableOutcome.Status.FAILED,
          row.counts(),
          row.watermark(),
          row.invariantViolations(),
          row.leaseWon(),
          Optional.of(failure));
    }
  }

  private TableOutcome sweep(Instant now) {
    try {
      long erased = sweep.sweep(retention.retention(), retention.reason(), retention.actor(), now);
      return TableOutcome.swept(erased);
    } catch (RuntimeException e) {
      MeterStoreException failure =
          e instanceof MeterStoreException m
              ? m
              : new MeterStoreException(
                  ErrorKind.STORAGE, "Cannot run the retention sweep: " + e, e);
      return TableOutcome.sweepFailed(failure);
    }
  }
}
