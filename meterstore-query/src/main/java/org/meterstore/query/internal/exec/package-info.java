/**
 * Execution of the scans a plan chose (unsupported, may change): SQL for PostgreSQL with version
 * resolution pushed down, Iceberg scans with filters and projections pushed into the scan, version
 * resolution in memory, merge elision from file statistics, and the enumerators that feed Calcite.
 */
package org.meterstore.query.internal.exec;
