/**
 * Aggregation inside the cold scan (unsupported, may change): the pushed aggregate ({@code
 * ColdAggregation}), per-group state and results, and the partial aggregate each unit fills and the
 * executor merges.
 */
package org.meterstore.query.internal.cold.aggregate;
