/**
 * The three kinds of scan unit and the planner that picks them (unsupported, may change): a file
 * whose statistics prove one version per reading ({@code FileUnit}), a month merged across files
 * ({@code MergeUnit}), and tasks with delete files read as Iceberg records ({@code RecordsUnit});
 * {@code ScanPlanner} turns a request into units.
 */
package org.meterstore.query.internal.cold.scan;
