package org.meterstore.query.internal.cold;

import org.meterstore.query.internal.cold.unit.ScanUnit;
import org.meterstore.query.internal.cold.unit.UnitRun;

/**
 * Records what each finished unit read as {@code meterstore.query.cold.rows} and, for the columnar
 * path, what its readers decoded as {@code meterstore.query.cold.rows_decoded}.
 */
record UnitMetrics(ColdMetrics metrics, String table) {
  void record(ScanUnit unit, UnitRun run) {
    metrics.rowsRead(table, unit.path(), unit.resolution(), run.rowsRead());
    if ("columnar".equals(unit.path())) {
      metrics.rowsDecoded(table, run.rowsDecoded());
    }
  }
}
