/**
 * The cold executor (unsupported, may change): reads a pinned snapshot's files in column batches
 * ({@link org.meterstore.cold.scan}), evaluates the pushed predicates on vectors, resolves versions
 * per month by merging the files' {@code (malo_id, from)} runs (skipped per file where statistics
 * prove one version), and either aggregates inside the scan or hands Calcite rows; files are read
 * in parallel on the engine's bounded pool. Tasks with delete files are read as Iceberg records and
 * fed to the same code. This package holds the entry (the executor, its request, rows and metrics)
 * and runs a scan's units on the pool or the querying thread; the parts live in the sub-packages
 * {@code batch}, {@code filter}, {@code aggregate}, {@code merge} and {@code unit}, each of which
 * depends only on those named before it.
 */
package org.meterstore.query.internal.cold;
