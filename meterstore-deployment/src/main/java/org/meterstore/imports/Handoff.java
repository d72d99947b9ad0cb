package org.meterstore.imports;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * Items made on a thread of their own and taken in order by one consumer: the producer runs ahead
 * by at most {@code capacity} items. A failure of the producer reaches the consumer after every
 * item made before it: a {@code RuntimeException} as it was thrown, an {@code Error} as a {@code
 * STORAGE} exception that names it (the consumer must not wait for items that never come). The
 * thread lives as long as this object: {@link #close} stops it (interrupting a producer waiting for
 * room) and waits for it to end. Not thread-safe: one consumer. (The writing pass's {@code
 * ReadAhead} does the same for rows; it lives in the import's internal package, which this API
 * package may not use.)
 *
 * @param <T> the items
 */
final class Handoff<T> implements AutoCloseable {
  /** Makes the items, handing each to {@code sink} in order; returns at the end of them. */
  @FunctionalInterface
  interface Producer<T> {
    void produce(Sink<T> sink) throws InterruptedException;
  }

  /** Where a producer puts its items; {@link #put} waits while the consumer is behind. */
  @FunctionalInterface
  interface Sink<T> {
    void put(T item) throws InterruptedException;
  }

  /** The producer's last item: its end, or its failure. */
  private record End(RuntimeException failure) {}

  private final BlockingQueue<Object> queue;
  private final Thread thread;
  private boolean ended;

  /** Starts {@code producer} on a daemon thread named {@code threadName}. */
  Handoff(String threadName, int capacity, Producer<T> producer) {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.thread = new Thread(() -> run(producer), threadName);
    thread.setDaemon(true);
    thread.start();
  }

  private void run(Producer<T> producer) {
    try {
      RuntimeException failure = null;
      try {
        producer.produce(queue::put);
      } catch (RuntimeException e) {
        failure = e;
      } catch (Error e) {
        failure =
            new MeterStoreException(
                ErrorKind.STORAGE, false, "Thread " + thread.getName() + " failed: " + e, e);
      }
      queue.put(new End(failure));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed by the consumer: nobody waits for more
    }
  }

  /**
   * The next item, or null after the last.
   *
   * @throws RuntimeException the producer's failure, after the items made before it; {@code
   *     STORAGE} (retryable) when the consumer is interrupted while it waits
   */
  T next() {
    if (ended) {
      return null;
    }
    Object item;
    try {
      item = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterStoreException(
          ErrorKind.STORAGE, true, "Interrupted while waiting for " + thread.getName(), e);
    }
    if (item instanceof End end) {
      ended = true;
      if (end.failure() != null) {
        throw end.failure();
      }
      return null;
    }
    @SuppressWarnings("unchecked")
    T t = (T) item;
    return t;
  }

  /** Stops the producer (if it is still making items) and waits for its thread to end. */
  @Override
  public void close() {
    thread.interrupt();
    queue.clear();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
