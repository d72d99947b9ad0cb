/**
 * Aggregation inside a cold scan (unsupported, may change): {@link
 * org.meterstore.query.internal.cold.aggregate.ColdAggregation}, the group keys and calls the
 * planner pushes, and the partial aggregate each unit computes over its batches (keys encoded as
 * longs in an open-addressing table, sums exact past a long), which the executor merges into the
 * result rows.
 */
package org.meterstore.query.internal.cold.aggregate;
