/**
 * The cold tier read in column batches: one Iceberg file scan task's Parquet file decoded through
 * Parquet's own page and value readers into primitive vectors (timestamps as epoch microseconds,
 * dates as epoch days, decimals as unscaled longs, text as dictionary ids), with row groups skipped
 * by the task's residual filter, pages skipped through the file's page indexes (only the rows of
 * the pages that may match are decoded) and its split respected; footers and page indexes are kept
 * in a {@link org.meterstore.cold.scan.FooterCache}. Opened through {@link
 * org.meterstore.cold.snapshot.SnapshotView#openBatches}, so files are read through the table's own
 * Iceberg {@code FileIO} (local warehouse, S3, vended credentials). No Arrow, no JVM flags.
 */
package org.meterstore.cold.scan;
