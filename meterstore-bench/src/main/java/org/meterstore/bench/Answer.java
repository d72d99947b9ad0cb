package org.meterstore.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The size and a checksum (the sum of one numeric column) of the last answer read, so that two
 * engines' answers to the same question can be compared. Not thread-safe: one per side.
 */
final class Answer {
  private final int sumColumn;
  private final String unit;
  long rows;
  double sum;

  /**
   * @param sumColumn the 1-based column summed as the checksum (skipped when the answer has fewer)
   * @param unit what a row is, for {@link #toString} ({@code groups}, {@code rows})
   */
  Answer(int sumColumn, String unit) {
    this.sumColumn = sumColumn;
    this.unit = unit;
  }

  /** Executes {@code sql} on {@code c} and reads every row. */
  Object read(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return consume(rs);
    }
  }

  /** Executes {@code ps} (its parameters already set) and reads every row. */
  Object read(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      return consume(rs);
    }
  }

  private Object consume(ResultSet rs) throws SQLException {
    long n = 0;
    double total = 0;
    boolean summed = rs.getMetaData().getColumnCount() >= sumColumn;
    while (rs.next()) {
      n++;
      if (summed) {
        total += rs.getDouble(sumColumn);
      }
    }
    rows = n;
    sum = total;
    return null;
  }

  /** Same row count and a checksum equal up to rounding (1e-3 relative). */
  boolean agrees(Answer other) {
    return rows == other.rows && Math.abs(sum - other.sum) < 1e-3 * Math.max(1, Math.abs(sum));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%,d %s, sum %.3f", rows, unit, sum);
  }
}
