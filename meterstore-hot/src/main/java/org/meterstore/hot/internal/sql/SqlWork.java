package org.meterstore.hot.internal.sql;

import java.sql.Connection;
import java.sql.SQLException;

/** Work done on one borrowed connection, which JDBC lets fail with {@link SQLException}. */
@FunctionalInterface
public interface SqlWork<T> {
  /** Runs on {@code connection}; must not close it or end its transaction. */
  T run(Connection connection) throws SQLException;
}
