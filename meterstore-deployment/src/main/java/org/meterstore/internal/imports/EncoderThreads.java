package org.meterstore.internal.imports;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.meterstore.cold.commit.Encoders;

/**
 * The threads an import lends the cold tier to encode a chunk's Parquet files beside its own
 * ({@link Encoders}): {@code encodingThreads - 1} of them, started with the writing pass and
 * stopped by {@link #close} when it ends. None when one thread encodes.
 */
final class EncoderThreads implements AutoCloseable {
  private final ExecutorService pool;
  private final Encoders encoders;

  EncoderThreads(int encodingThreads, String table) {
    int extra = encodingThreads - 1;
    if (extra == 0) {
      this.pool = null;
      this.encoders = Encoders.CALLER;
      return;
    }
    AtomicInteger number = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            extra,
            task -> {
              Thread t =
                  new Thread(
                      task, "meterstore-import-encoder-" + number.incrementAndGet() + " " + table);
              t.setDaemon(true);
              return t;
            });
    this.encoders = new Encoders(pool, extra);
  }

  Encoders encoders() {
    return encoders;
  }

  /** Stops the threads; a slice still encoding (after a failure elsewhere) is interrupted. */
  @Override
  public void close() {
    if (pool == null) {
      return;
    }
    pool.shutdownNow();
    try {
      pool.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
