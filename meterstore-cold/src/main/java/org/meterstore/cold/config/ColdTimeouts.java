package org.meterstore.cold.config;

import java.time.Duration;
import org.meterstore.api.MeterStoreException;

/**
 * How long the cold tier waits for the object store and the REST catalog before it reports them
 * unreachable. They bound an outage: with the store stopped (connections refused) an operation
 * fails after {@code retryAttempts} quick attempts and the pauses between them (well under a second
 * with the defaults); with the store's host unreachable after about {@code retryAttempts ×
 * connectTimeout}; with a store that accepts but never answers after about {@code retryAttempts ×
 * requestTimeout}. Whatever the cause, one object store call, its retries and the pauses between
 * them included, gives up after {@code callTimeout}: a store that accepts connections and then
 * never answers, or that stops reading an upload, costs at most that much per call. The failure is
 * a retryable {@code STORAGE} error.
 *
 * @param connectTimeout how long one connection attempt to the object store or the REST catalog may
 *     take (default 2 s); more than zero, at most 10 minutes
 * @param requestTimeout how long one request may wait for the server's next bytes once connected
 *     (default 10 s): an idle timeout, so a slow but moving upload or download is never cut off;
 *     more than zero, at most 10 minutes
 * @param retryAttempts how many attempts one object store request makes in all (default 3), at
 *     least 1 (no retry), at most 10; the pauses between them grow from 100 ms to at most 1 s
 * @param callTimeout how long one object store call may take as a whole, every attempt and pause
 *     included (default 30 s, or {@code requestTimeout} when that is longer); at least {@code
 *     requestTimeout}, at most 10 minutes. It also cuts off a transfer that still makes progress,
 *     so it must allow the largest single request ({@code S3FileIO} uploads a file under 48 MiB in
 *     one request, a larger one in 32 MiB parts) at the slowest link the deployment accepts. It
 *     does not cover the REST catalog's calls (Iceberg's REST client has no such setting; a
 *     timed-out read there is not retried).
 */
public record ColdTimeouts(
    Duration connectTimeout, Duration requestTimeout, int retryAttempts, Duration callTimeout) {

  private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

  /** The default connection timeout: 2 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /** The default request (idle) timeout: 10 s. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

  /** The default bound of one whole object store call, retries included: 30 s. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);

  /** The default attempts per request: 3. */
  public static final int DEFAULT_RETRY_ATTEMPTS = 3;

  /** The shortest pause before a retry of an object store request. */
  public static final Duration MIN_RETRY_PAUSE = Duration.ofMillis(100);

  /** The longest pause before a retry of an object store request. */
  public static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(1);

  /** 2 s to connect, 10 s idle, 3 attempts, 30 s per call. */
  public static final ColdTimeouts DEFAULTS =
      new ColdTimeouts(
          DEFAULT_CONNECT_TIMEOUT,
          DEFAULT_REQUEST_TIMEOUT,
          DEFAULT_RETRY_ATTEMPTS,
          DEFAULT_CALL_TIMEOUT);

  /** Checks the ranges. */
  public ColdTimeouts {
    requireTimeout("cold connect timeout", connectTimeout);
    requireTimeout("cold request timeout", requestTimeout);
    if (retryAttempts < 1 || retryAttempts > 10) {
      throw MeterStoreException.invalid(
          "cold retry attempts", retryAttempts, "from 1 (no retry) to 10");
    }
    requireTimeout("cold call timeout", callTimeout);
    if (callTimeout.compareTo(requestTimeout) < 0) {
      throw MeterStoreException.invalid(
          "cold call timeout", callTimeout, "at least the request timeout " + requestTimeout);
    }
  }

  /**
   * Timeouts with the default call bound: {@link #DEFAULT_CALL_TIMEOUT}, or {@code requestTimeout}
   * when that is longer.
   */
  public ColdTimeouts(Duration connectTimeout, Duration requestTimeout, int retryAttempts) {
    this(connectTimeout, requestTimeout, retryAttempts, defaultCallTimeout(requestTimeout));
  }

  /**
   * The call bound a configuration without one gets: 30 s, or {@code requestTimeout} when that is
   * longer (null stays null, for the constructor to refuse).
   */
  public static Duration defaultCallTimeout(Duration requestTimeout) {
    if (requestTimeout == null || requestTimeout.compareTo(DEFAULT_CALL_TIMEOUT) <= 0) {
      return DEFAULT_CALL_TIMEOUT;
    }
    return requestTimeout;
  }

  private static void requireTimeout(String field, Duration d) {
    if (d == null || d.isNegative() || d.isZero() || d.compareTo(MAX_TIMEOUT) > 0) {
      throw MeterStoreException.invalid(field, d, "more than 0 s, at most 10 min");
    }
  }
}
