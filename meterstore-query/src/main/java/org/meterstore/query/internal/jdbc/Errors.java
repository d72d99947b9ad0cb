package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.outage.StorageFailures;

/**
 * Turns what a Calcite call threw into the {@code SQLException} the caller sees: when a {@link
 * MeterStoreException} is anywhere in the chain, its message leads and it is the cause, and a
 * retryable one becomes a {@link SQLTransientException} so that pools and tools retry it. A chain
 * without one whose cause is a storage failure ({@link StorageFailures}: the object store or the
 * REST catalog did not answer, wherever Calcite wrapped it) becomes the retryable {@code STORAGE}
 * error too, never a plain {@code SQLException} from a planner rule.
 */
final class Errors {
  private Errors() {}

  static Throwable translate(Throwable thrown) {
    Throwable t = thrown instanceof InvocationTargetException i ? i.getCause() : thrown;
    MeterStoreException meter = find(t);
    if (meter == null) {
      // e.g. a manifest read by a planner rule while the object store is down
      meter = StorageFailures.classify("run the query", t);
    }
    if (meter == null) {
      ArithmeticException arithmetic = arithmetic(t);
      if (arithmetic != null) {
        return evaluation(arithmetic);
      }
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

  /**
   * An {@link ArithmeticException} of the query's own expressions (division by zero, an overflow),
   * thrown by Calcite's generated code directly or, for a constant it folded into a static
   * initializer, as the cause of an {@link ExceptionInInitializerError}: an {@code Error} that
   * would otherwise escape every {@code catch (SQLException)} of the caller as a stack trace.
   */
  private static ArithmeticException arithmetic(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ArithmeticException a) {
        return a;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  /**
   * Whether {@code t} says the plan's generated class failed to initialise: its static initialiser
   * threw ({@link ExceptionInInitializerError}), or an earlier execution's did ({@code
   * NoClassDefFoundError: Could not initialize class …}). Such a plan fails every later execution.
   */
  static boolean poisonsPlan(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ExceptionInInitializerError
          || (c instanceof NoClassDefFoundError
              && String.valueOf(c.getMessage()).startsWith("Could not initialize class"))) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }

  /** The SQL error of a failed evaluation: SQLState 22012 for division by zero, else 22003. */
  private static SQLException evaluation(ArithmeticException e) {
    String text = String.valueOf(e.getMessage());
    boolean byZero = text.contains("by zero") || text.contains("Division undefined");
    return new SQLException(
        "Cannot evaluate the query: "
            + (byZero ? "division by zero" : "numeric value out of range (" + text + ")"),
        byZero ? "22012" : "22003",
        e);
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
