/**
 * The cold executor (unsupported, may change): reads a pinned snapshot's files in column batches
 * ({@link org.meterstore.cold.scan}), evaluates the pushed predicates on vectors, resolves versions
 * per month by merging the files' {@code (malo_id, from)} runs (skipped per file where statistics
 * prove one version), and either aggregates inside the scan or hands Calcite rows; files are read
 * in parallel on the engine's bounded pool. Tasks with delete files are read as Iceberg records and
 * fed to the same code. This package holds the entry ({@code ColdExecutor}, {@code ColdRows}) and
 * the row stream handed to Calcite; its sub-packages hold the parts by role, layered without
 * cycles: {@code batch} (column layout, buffers) under {@code filter} and {@code aggregate}, the
 * unit contract ({@code unit}), version resolution ({@code merge}) and the units themselves ({@code
 * scan}).
 */
package org.meterstore.query.internal.cold;
