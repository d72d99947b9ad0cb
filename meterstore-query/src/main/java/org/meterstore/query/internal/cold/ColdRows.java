package org.meterstore.query.internal.cold;

import java.util.Iterator;

/**
 * The rows of one cold scan as full-width arrays of Calcite internal values in storage order (the
 * requested columns set, the others null), streamed while workers read the files. {@link #next}
 * throws {@link org.meterstore.api.MeterStoreException} {@code STORAGE} (retryable) when a worker
 * failed. {@link #close()} stops the workers and returns once none is running; it must be called,
 * also when the rows are read to the end. Not thread-safe: one consumer.
 */
public interface ColdRows extends Iterator<Object[]>, AutoCloseable {
  @Override
  void close();
}
