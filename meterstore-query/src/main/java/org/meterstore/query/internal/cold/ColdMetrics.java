package org.meterstore.query.internal.cold;

/**
 * Where the executor records the rows it read: {@code path} is {@code columnar} or {@code records},
 * {@code resolution} {@code elided} or {@code resolved}. The engine passes its query metrics'
 * {@code coldRowsRead} ({@code meterstore.query.cold.rows}). Called from worker threads.
 */
@FunctionalInterface
public interface ColdMetrics {
  void rowsRead(String table, String path, String resolution, long rows);

  /** Records nothing. */
  ColdMetrics NONE = (table, path, resolution, rows) -> {};
}
