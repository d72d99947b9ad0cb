package org.meterstore.maintenance;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
  private final int maxWindows;
  private final boolean expireSnapshots;
  private final boolean compact;
  private final MaintenanceBuilder.RetentionJob retention;
  private final RetentionSweep sweep;

  MaintenanceCycle(
      Maintenance catalog,
      Archiver archiver,
      int maxWindows,
      boolean expireSnapshots,
      boolean compact,
      MaintenanceBuilder.RetentionJob retention,
      RetentionSweep sweep) {
    this.catalog = catalog;
    this.archiver = archiver;
    this.maxWindows = maxWindows;
    this.expireSnapshots = expireSnapshots;
    this.compact = compact;
    this.retention = retention;
    this.sweep = sweep;
  }

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
      TableOutcome row = archiver.run(table, now, maxWindows, expireSnapshots, compact);
      if (row.failure().filter(f -> f.kind() == ErrorKind.CONFIG).isEmpty()) {
        ensureHeadroom(table, now);
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
