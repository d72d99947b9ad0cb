/**
 * The Calcite side of the query layer (unsupported, may change): the schema, one table class per
 * relation kind, the logical scan that absorbs filters and projections, the rules that route it to
 * the hot tier, the cold tier or both, and the per-statement state (watermark, snapshot, pins)
 * every plan of a statement shares.
 */
package org.meterstore.query.internal.plan;
