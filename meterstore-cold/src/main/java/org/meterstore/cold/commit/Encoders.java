package org.meterstore.cold.commit;

import java.util.Objects;
import java.util.concurrent.Executor;
import org.meterstore.api.MeterStoreException;

/**
 * Threads a large write may encode its Parquet files on beside the calling thread. The cold tier
 * starts no thread of its own: a caller that wants a chunk encoded on several cores (an import)
 * owns the threads for as long as it runs and hands them in here.
 *
 * @param executor runs the extra slices' encoding
 * @param threads how many slices the executor may run at once, zero or more; a write uses at most
 *     {@code threads + 1} slices, the calling thread encoding one
 */
public record Encoders(Executor executor, int threads) {
  /** The calling thread only. */
  public static final Encoders CALLER = new Encoders(Runnable::run, 0);

  /** Checks the values. */
  public Encoders {
    Objects.requireNonNull(executor, "executor");
    if (threads < 0) {
      throw MeterStoreException.invalid("encoder threads", threads, "zero or more");
    }
  }
}
