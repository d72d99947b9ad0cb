package org.meterstore.maintenance.archival;

import java.time.Instant;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.window.TierWatermark;

/**
 * What every step of one table's archival run works with: both tiers, the table, the caller's
 * {@code now}, the held lease, the settings, the metrics, the fault hook (tests only) and W through
 * its guard.
 */
record RunContext(
    HotStore hot,
    ColdTable cold,
    TableDefinition table,
    Instant now,
    ArchivalLease lease,
    ArchivalSettings settings,
    ArchivalMetrics metrics,
    FaultHook faults,
    TierWatermark watermark) {

  /** The table's name. */
  String name() {
    return table.name();
  }
}
