package org.meterstore.cold.config;

import java.time.Duration;
import org.meterstore.api.MeterStoreException;

/**
 * How long the cold tier waits for the object store and the REST catalog before it reports them
 * unreachable. They bound an outage: with the store stopped (connections refused) an operation
 * fails after {@code retryAttempts} quick attempts and the pauses between them (well under a second
 * with the defaults); with the store's host unreachable after about {@code retryAttempts ×
 * connectTimeout}; with a store that accepts but never answers after about {@code retryAttempts ×
 * requestTimeout}. The failure is a retryable {@code STORAGE} error.
 *
 * @param connectTimeout how long one connection attempt to the object store or the REST catalog may
 *     take (default 2 s); more than zero, at most 10 minutes
 * @param requestTimeout how long one request may wait for the server's next bytes once connected
 *     (default 10 s): an idle timeout, so a slow but moving upload or download is never cut off;
 *     more than zero, at most 10 minutes
 * @param retryAttempts how many attempts one object store request makes in all (default 3), at
 *     least 1 (no retry), at most 10; the pauses between them grow from 100 ms to at most 1 s
 */
public record ColdTimeouts(Duration connectTimeout, Duration requestTimeout, int retryAttempts) {

  private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

  /** The default connection timeout: 2 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /** The default request (idle) timeout: 10 s. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  /** The default attempts per request: 3. */
  public static final int DEFAULT_RETRY_ATTEMPTS = 3;

  /** The shortest pause before a retry of an object store request. */
  public static final Duration MIN_RETRY_PAUSE = Duration.ofMillis(100);

  /** The longest pause before a retry of an object store request. */
  public static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(1);

  /** 2 s to connect, 10 s idle, 3 attempts. */
  public static final ColdTimeouts DEFAULTS =
      new ColdTimeouts(DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, DEFAULT_RETRY_ATTEMPTS);

  /** Checks the ranges. */
  public ColdTimeouts {
    requireTimeout("cold connect timeout", connectTimeout);
    requireTimeout("cold request timeout", requestTimeout);
    if (retryAttempts < 1 || retryAttempts > 10) {
      throw MeterStoreException.invalid(
          "cold retry attempts", retryAttempts, "from 1 (no retry) to 10");
    }
  }

  private static void requireTimeout(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero() || d.compareTo(MAX_TIMEOUT) > 0) {
      throw MeterStoreException.invalid(field, d, "more than 0 s, at most 10 min");
    }
  }
}
