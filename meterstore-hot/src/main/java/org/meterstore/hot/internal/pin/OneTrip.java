package org.meterstore.hot.internal.pin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends several statements as one prepared statement: the driver writes them all before it waits,
 * so they cost one network round trip. Statements that write are wrapped in {@code BEGIN; SET LOCAL
 * synchronous_commit = off; … COMMIT} on an autocommit connection, which makes them one short
 * transaction without the round trips of {@code setAutoCommit(false)} and {@code commit()}, and
 * without waiting for the WAL flush: what is written here (reader pins) is worth nothing after a
 * crash of the database anyway, because the statements it protected end with it.
 *
 * <p>Why: a query execution reads the committed watermark and the partition list and pins a window;
 * released, it deletes the pin. With a transaction each, those were a dozen round trips, most of a
 * short query's time.
 */
final class OneTrip {
  private OneTrip() {}

  /** The statements joined, as one short transaction that commits without a WAL flush wait. */
  static String writing(String... statements) {
    return "BEGIN; SET LOCAL synchronous_commit = off; "
        + String.join("; ", statements)
        + "; COMMIT";
  }

  /** The statements joined, each running on its own (autocommit). */
  static String reading(String... statements) {
    return String.join("; ", statements);
  }

  /** What one statement's rows become. */
  @FunctionalInterface
  interface Rows<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /**
   * Executes {@code s} (its parameters bound) on {@code c}, which must be in autocommit mode, and
   * reads the statements that return rows, in order, with {@code readers}. When anything fails, an
   * open transaction is rolled back before the exception leaves, so the pooled connection is never
   * handed out inside an aborted transaction.
   */
  static List<Object> execute(Connection c, PreparedStatement s, List<Rows<?>> readers)
      throws SQLException {
    List<Object> results = new ArrayList<>();
    try {
      boolean rows = s.execute();
      while (true) {
        if (rows) {
          try (ResultSet rs = s.getResultSet()) {
            results.add(readers.get(results.size()).read(rs));
          }
        } else if (s.getUpdateCount() == -1) {
          return results;
        }
        rows = s.getMoreResults();
      }
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(c);
      throw e;
    }
  }

  private static void rollbackQuietly(Connection c) {
    try (Statement r = c.createStatement()) {
      r.execute("ROLLBACK");
    } catch (SQLException ignored) {
      // the connection is broken; the pool discards it
    }
  }
}
