package org.meterstore.api;

/**
 * The closed set of failure categories a caller can act on (DESIGN § 8).
 *
 * <p>Each kind has a default retryability; {@link MeterStoreException#isRetryable()} may differ
 * only for {@link #QUERY}, where a statement that will not plan is not worth retrying but an
 * unreachable storage tier is.
 */
public enum ErrorKind {
  /** A DDL statement could not get its lock within {@code ddl_lock_timeout}; nothing changed. */
  LOCK_TIMEOUT(true),
  /** The backend failed: a connection, the object store, a full disk. */
  STORAGE(true),
  /** A query failed: planning errors are not retryable, unreachable storage is. */
  QUERY(false),
  /** The store refused a delivery; the delivery has to change. */
  INTEGRITY_VIOLATION(false),
  /** The store's own state is wrong (for example hot rows below the watermark). */
  INVARIANT_VIOLATED(false),
  /** An incompatible schema change halted the table; an operator has to resolve it. */
  QUARANTINED(false),
  /** The configuration is invalid. */
  CONFIG(false),
  /** A value handed to MeterStore breaks a domain rule. */
  INVALID_INPUT(false);

  private final boolean retryableByDefault;

  ErrorKind(boolean retryableByDefault) {
    this.retryableByDefault = retryableByDefault;
  }

  /** Whether an error of this kind is worth retrying unchanged, unless the error says otherwise. */
  public boolean retryableByDefault() {
    return retryableByDefault;
  }
}
