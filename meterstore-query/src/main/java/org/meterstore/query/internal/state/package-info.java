/**
 * What a statement reads, bound at execution (unsupported, may change): the engine's shared
 * runtime, the statement context of one planning or execution, each table's state in it (W, the
 * pinned snapshot, the hot partitions and their reader pin) and the query metrics.
 */
package org.meterstore.query.internal.state;
