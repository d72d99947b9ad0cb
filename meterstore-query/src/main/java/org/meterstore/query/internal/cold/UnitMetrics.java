package org.meterstore.query.internal.cold;

import org.meterstore.query.internal.exec.QueryMetrics;

/** Records the rows each finished unit read as {@code meterstore.query.cold.rows}. */
record UnitMetrics(QueryMetrics metrics, String table) {
  void record(ScanUnit unit, long rows) {
    metrics.coldRowsRead(table, unit.path(), unit.resolution(), rows);
  }
}
