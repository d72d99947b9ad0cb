/**
 * The shape of one cold scan's column batches (unsupported, may change): which storage columns are
 * read at which vector position, with their types and the positions version resolution needs
 * ({@link org.meterstore.query.internal.cold.batch.ScanColumns}), and where a unit hands the rows
 * of a batch that qualify ({@link org.meterstore.query.internal.cold.batch.BatchSink}). The other
 * parts of the cold executor build on these two.
 */
package org.meterstore.query.internal.cold.batch;
