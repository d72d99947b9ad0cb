package org.meterstore.maintenance.archival;

import java.time.Period;
import org.meterstore.api.table.TablePolicy;

/**
 * How long expiry keeps cold snapshots, for every table of a maintenance run: it replaces each
 * table's {@code snapshot_retention} and {@code min_snapshots_to_keep}. Ages are measured on
 * MeterStore's clock (the {@code now} of each commit and of the run), never by Iceberg's wall-clock
 * commit time.
 *
 * @param retention snapshots stamped before {@code now - retention} may be expired; zero or more
 * @param minSnapshotsToKeep the fewest snapshots expiry leaves; at least 1
 */
public record SnapshotRetention(Period retention, int minSnapshotsToKeep) {
  /** Checks both components with the table policy's own rules. */
  public SnapshotRetention {
    TablePolicy.DEFAULTS.withSnapshotRetention(retention, minSnapshotsToKeep);
  }

  /** {@code policy} with this retention in place of its own. */
  public TablePolicy applyTo(TablePolicy policy) {
    return policy.withSnapshotRetention(retention, minSnapshotsToKeep);
  }
}
