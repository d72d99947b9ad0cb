/**
 * The hot side of a scan (unsupported, may change): the SQL sent to PostgreSQL over the partitions
 * an execution enumerated, with version resolution and aggregation pushed into it, and the source
 * that streams its rows to Calcite.
 */
package org.meterstore.query.internal.hot;
