package org.meterstore.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The DuckDB baseline's connection: in-process (the JDBC driver runs DuckDB inside this JVM, so the
 * JVM's process CPU time counts its threads too), UTC, and explicitly using every core the JVM sees
 * ({@code SET threads}), as issue #15's target demands ("all cores").
 */
final class DuckDb {
  private DuckDb() {}

  /** The threads DuckDB is told to use: {@link Runtime#availableProcessors()}. */
  static int threads() {
    return Runtime.getRuntime().availableProcessors();
  }

  /** A new in-memory DuckDB connection with UTC and {@link #threads()} threads. */
  static Connection open() throws SQLException {
    Connection c = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET threads = " + threads());
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /** {@code read_parquet([...])} over the local paths {@code files}. */
  static String readParquet(List<String> files) {
    return "read_parquet(["
        + String.join(", ", files.stream().map(f -> "'" + f.replace("'", "''") + "'").toList())
        + "])";
  }
}
