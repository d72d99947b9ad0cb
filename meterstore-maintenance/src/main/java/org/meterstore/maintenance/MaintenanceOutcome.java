package org.meterstore.maintenance;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.meterstore.maintenance.outcome.TableOutcome;

/**
 * What one maintenance cycle did: one row per table, in the order the tables were visited, then the
 * {@value TableOutcome#RETENTION} row when a retention sweep is configured.
 *
 * @param now the cycle's instant
 * @param rows the rows
 */
public record MaintenanceOutcome(Instant now, List<TableOutcome> rows) {

  /** Copies the rows; none may be null. */
  public MaintenanceOutcome {
    Objects.requireNonNull(now, "now");
    rows = List.copyOf(rows);
  }

  /** The row of {@code table} (or {@value TableOutcome#RETENTION}), if the cycle has one. */
  public Optional<TableOutcome> row(String table) {
    return rows.stream().filter(r -> r.table().equals(table)).findFirst();
  }

  /**
   * The rows an operator must look at: failed, quarantined, or with invariant violations. Alert on
   * these (and on watermark lag), not on deferral or contention.
   */
  public List<TableOutcome> unhealthy() {
    return rows.stream().filter(TableOutcome::unhealthy).toList();
  }

  /** The rows that failed or are quarantined, the retention sweep's included. */
  public List<TableOutcome> failures() {
    return rows.stream().filter(TableOutcome::failed).toList();
  }

  /** False while any row failed, is quarantined, or found hot rows below the watermark. */
  public boolean healthy() {
    return unhealthy().isEmpty();
  }

  /** Windows archived by the cycle over all tables. */
  public int windowsArchived() {
    return rows.stream().mapToInt(r -> r.counts().windowsArchived()).sum();
  }
}
