package org.meterstore.cli.command;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.meterstore.cli.output.Rows;

/**
 * Reads a JDBC result into {@link Rows} with stable value types: timestamps become UTC instants and
 * dates local dates, read as text so the JVM's time zone never shifts them; decimals stay exact.
 */
final class ResultSets {
  private ResultSets() {}

  /** The column names (labels; a repeated label gets a {@code _2}, {@code _3} … suffix). */
  static List<String> columns(ResultSetMetaData md) throws SQLException {
    List<String> names = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      String label = md.getColumnLabel(i);
      String name = label;
      for (int n = 2; !seen.add(name); n++) {
        name = label + "_" + n;
      }
      names.add(name);
    }
    return names;
  }

  /** The SQL type names of the columns, in order. */
  static List<String> types(ResultSetMetaData md) throws SQLException {
    List<String> types = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      types.add(md.getColumnTypeName(i));
    }
    return types;
  }

  /** Every row of {@code rs}, at most {@code limit}. */
  static Rows read(ResultSet rs, int limit) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    List<String> columns = columns(md);
    int n = columns.size();
    int[] types = new int[n];
    for (int i = 0; i < n; i++) {
      types[i] = md.getColumnType(i + 1);
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rows.size() < limit && rs.next()) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        row.add(value(rs, i + 1, types[i]));
      }
      rows.add(row);
    }
    return new Rows(columns, rows);
  }

  private static Object value(ResultSet rs, int i, int type) throws SQLException {
    Object v =
        switch (type) {
          case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> instant(rs.getString(i));
          case Types.DATE -> date(rs.getString(i));
          case Types.DECIMAL, Types.NUMERIC -> rs.getBigDecimal(i);
          case Types.BIGINT -> rs.getLong(i);
          case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> rs.getInt(i);
          case Types.BOOLEAN, Types.BIT -> rs.getBoolean(i);
          case Types.DOUBLE, Types.FLOAT, Types.REAL -> rs.getDouble(i);
          case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> rs.getString(i);
          default -> rs.getObject(i);
        };
    return rs.wasNull() ? null : v;
  }

  private static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip().replace(' ', 'T');
    if (t.endsWith("Z")) {
      return Instant.parse(t);
    }
    return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
  }

  private static LocalDate date(String text) {
    return text == null ? null : LocalDate.parse(text.strip());
  }
}
