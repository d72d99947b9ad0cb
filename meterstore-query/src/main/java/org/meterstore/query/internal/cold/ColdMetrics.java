package org.meterstore.query.internal.cold;

/**
 * Where the executor records the rows it read: {@code path} is {@code columnar} or {@code records},
 * {@code resolution} {@code elided} or {@code resolved}. The engine passes its query metrics' cold
 * instruments ({@code meterstore.query.cold.rows}, {@code meterstore.query.cold.rows_decoded}).
 * Called from worker threads.
 */
@FunctionalInterface
public interface ColdMetrics {
  /** Records {@code rows} rows read from storage (before the scan's predicates). */
  void rowsRead(String table, String path, String resolution, long rows);

  /**
   * Records {@code rows} rows the columnar reader decoded from Parquet pages to return the rows it
   * read: at least those, more where a page holds rows the page indexes could not skip. Records
   * nothing unless overridden.
   */
  default void rowsDecoded(String table, long rows) {}

  /** Records nothing. */
  ColdMetrics NONE = (table, path, resolution, rows) -> {};
}
