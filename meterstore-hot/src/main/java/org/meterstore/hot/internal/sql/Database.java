package org.meterstore.hot.internal.sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * Runs work in transactions on connections borrowed from the store's {@link DataSource}. Every
 * transaction either commits or is rolled back before the connection goes back; failures leave as
 * {@link MeterStoreException}. DDL transactions start with {@code SET LOCAL lock_timeout}, so the
 * timeout ends with them and never leaks into a pooled session. Thread-safe.
 *
 * @param dataSource where connections come from
 * @param schema the validated schema name
 * @param ddlLockTimeout the {@code lock_timeout} of DDL transactions; zero disables it
 */
public record Database(DataSource dataSource, String schema, Duration ddlLockTimeout) {

  /** {@code "schema"."name"}. */
  public String qualified(String name) {
    return SqlIdentifiers.qualified(schema, name);
  }

  /** Runs {@code work} in one transaction; {@code action} completes "Cannot …" in errors. */
  public <T> T transaction(Supplier<String> action, SqlWork<T> work) {
    return run(action, false, work);
  }

  /** Runs {@code work} in one transaction under {@code SET LOCAL lock_timeout}. */
  public <T> T ddl(Supplier<String> action, SqlWork<T> work) {
    return run(action, true, work);
  }

  /**
   * Runs {@code work} in autocommit mode, for statements that refuse a transaction block ({@code
   * DETACH … CONCURRENTLY}) and for single reads on hot paths (no {@code BEGIN}/{@code COMMIT}
   * round trips); a {@code lock_timeout} set by {@code work} must be reset by it.
   */
  public <T> T autocommit(Supplier<String> action, SqlWork<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      return work.run(c);
    } catch (SQLException e) {
      throw SqlErrors.translate(action.get(), e);
    }
  }

  /** The {@code lock_timeout} setting for DDL, e.g. {@code 3000ms}; {@code 0} disables it. */
  public String lockTimeoutSetting() {
    return ddlLockTimeout.toMillis() + "ms";
  }

  private <T> T run(Supplier<String> action, boolean ddl, SqlWork<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        if (ddl) {
          try (Statement s = c.createStatement()) {
            // A validated Duration formatted as whole milliseconds: no user text reaches SQL.
            s.execute("SET LOCAL lock_timeout = '" + lockTimeoutSetting() + "'");
          }
        }
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        restoreAutocommit(c);
      }
    } catch (SQLException e) {
      throw SqlErrors.translate(action.get(), e);
    }
  }

  /** Hands the connection back as it came; a broken one is discarded by its pool anyway. */
  private static void restoreAutocommit(Connection c) {
    try {
      c.setAutoCommit(true);
    } catch (SQLException ignored) {
      // the connection is broken; the failure that broke it is already being reported
    }
  }

  private static void rollbackQuietly(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException rollbackFailure) {
      cause.addSuppressed(rollbackFailure);
    }
  }
}
