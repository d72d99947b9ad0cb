package org.meterstore.query.internal.cold;

/** Records the rows each finished unit read as {@code meterstore.query.cold.rows}. */
record UnitMetrics(ColdMetrics metrics, String table) {
  void record(ScanUnit unit, long rows) {
    metrics.rowsRead(table, unit.path(), unit.resolution(), rows);
  }
}
