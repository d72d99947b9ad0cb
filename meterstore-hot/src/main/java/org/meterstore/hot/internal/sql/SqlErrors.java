package org.meterstore.hot.internal.sql;

import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * Translates {@link SQLException} into {@link MeterStoreException} by SQLState (DESIGN § 8), so no
 * JDBC type leaves the hot tier. The message keeps the server's first line (never a password: the
 * server does not echo one) and states whether anything changed.
 */
public final class SqlErrors {
  /** {@code lock_not_available}: {@code lock_timeout} expired. */
  public static final String LOCK_NOT_AVAILABLE = "55P03";

  /** {@code exclusion_violation}. */
  public static final String EXCLUSION_VIOLATION = "23P01";

  /** {@code unique_violation}. */
  public static final String UNIQUE_VIOLATION = "23505";

  /** {@code check_violation}; also raised when no partition accepts a row. */
  public static final String CHECK_VIOLATION = "23514";

  /** {@code insufficient_privilege}. */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";

  private SqlErrors() {}

  /**
   * The exception to throw for {@code e} raised while trying to {@code action} ("create partition x
   * of table y").
   */
  public static MeterStoreException translate(String action, SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String reason = firstLine(e);
    if (state.equals(LOCK_NOT_AVAILABLE)) {
      return new MeterStoreException(
          ErrorKind.LOCK_TIMEOUT,
          "Cannot "
              + action
              + ": a conflicting lock was held longer than ddl_lock_timeout; nothing was changed,"
              + " retry later ("
              + reason
              + ")",
          e);
    }
    if (state.equals(EXCLUSION_VIOLATION)
        || state.equals(UNIQUE_VIOLATION)
        || state.equals(CHECK_VIOLATION)) {
      return new MeterStoreException(
          ErrorKind.INTEGRITY_VIOLATION, "Cannot " + action + ": " + reason, e);
    }
    if (state.equals(INSUFFICIENT_PRIVILEGE)) {
      return new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot " + action + ": the database role lacks a privilege (" + reason + ")",
          e);
    }
    boolean retryable = isTransient(state) || e instanceof SQLTransientException;
    return new MeterStoreException(
        ErrorKind.STORAGE,
        retryable,
        "Cannot " + action + ": " + reason + " (SQLState " + state + ")",
        e);
  }

  /** Connection failures, serialization failures and deadlocks, resource shortages, shutdowns. */
  private static boolean isTransient(String state) {
    return state.startsWith("08")
        || state.startsWith("40")
        || state.startsWith("53")
        || state.startsWith("57P");
  }

  private static String firstLine(SQLException e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
