package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.meterstore.api.MeterStoreException;

/**
 * Turns what a Calcite call threw into the {@code SQLException} the caller sees: when a {@link
 * MeterStoreException} is anywhere in the chain, its message leads and it is the cause, and a
 * retryable one becomes a {@link SQLTransientException} so that pools and tools retry it.
 */
final class Errors {
  private Errors() {}

  static Throwable translate(Throwable thrown) {
    Throwable t = thrown instanceof InvocationTargetException i ? i.getCause() : thrown;
    MeterStoreException meter = find(t);
    if (meter == null) {
      return t;
    }
    String message = meter.getMessage() + " [" + meter.kind() + "]";
    SQLException sql =
        meter.isRetryable()
            ? new SQLTransientException(message, state(meter), meter)
            : new SQLException(message, state(meter), meter);
    if (t != meter) {
      sql.addSuppressed(t);
    }
    return sql;
  }

  private static String state(MeterStoreException e) {
    switch (e.kind()) {
      case STORAGE:
        return "08006";
      case QUERY:
        return e.isRetryable() ? "40001" : "42000";
      default:
        return "HY000";
    }
  }

  private static MeterStoreException find(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof MeterStoreException m) {
        return m;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }
}
