package org.meterstore.cold.config;

import java.time.Duration;
import org.meterstore.api.MeterStoreException;

/**
 * MeterStore's own retry of cold commits. Iceberg's retry is switched off for MeterStore's commits
 * ({@code commit.retry.num-retries=0}) because it would re-apply a commit to a newer base without
 * re-checking the watermark; MeterStore retries instead, re-reading the table and re-deriving the
 * commit each time.
 *
 * @param maxAttempts how many commit attempts one call makes, at least 1 (default 4)
 * @param minBackoff the shortest pause before a retry, zero or more (default 100 ms)
 * @param maxBackoff the longest pause before a retry, at least {@code minBackoff} (default 2 s);
 *     each pause is drawn uniformly between the two (jitter), doubling the lower bound per attempt
 */
public record CommitPolicy(int maxAttempts, Duration minBackoff, Duration maxBackoff) {

  /** Four attempts, 100 ms to 2 s apart. */
  public static final CommitPolicy DEFAULTS =
      new CommitPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2));

  /** Checks the ranges. */
  public CommitPolicy {
    if (maxAttempts < 1) {
      throw MeterStoreException.invalid("commit max attempts", maxAttempts, "at least 1");
    }
    if (minBackoff == null || minBackoff.isNegative()) {
      throw MeterStoreException.invalid("commit min backoff", minBackoff, "zero or more");
    }
    if (maxBackoff == null || maxBackoff.compareTo(minBackoff) < 0) {
      throw MeterStoreException.invalid("commit max backoff", maxBackoff, "at least min backoff");
    }
  }
}
