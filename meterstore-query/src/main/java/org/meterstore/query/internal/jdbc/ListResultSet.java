package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.List;
import java.util.Locale;

/**
 * A forward-only, read-only result set over rows held in memory: the metadata answers Calcite does
 * not give ({@code getPrimaryKeys}, {@code getTableTypes}). Values are {@code String}, {@code
 * Short}, {@code Integer} or null; the getters convert as JDBC drivers usually do.
 */
final class ListResultSet implements InvocationHandler {
  /** A column: its label and {@link Types} code ({@code VARCHAR}, {@code SMALLINT}, …). */
  record Column(String name, int type) {}

  private final List<Column> columns;
  private final List<Object[]> rows;
  private int row = -1;
  private boolean wasNull;
  private boolean closed;

  private ListResultSet(List<Column> columns, List<Object[]> rows) {
    this.columns = List.copyOf(columns);
    this.rows = List.copyOf(rows);
  }

  static ResultSet of(List<Column> columns, List<Object[]> rows) {
    return (ResultSet)
        Proxy.newProxyInstance(
            ListResultSet.class.getClassLoader(),
            new Class<?>[] {ResultSet.class},
            new ListResultSet(columns, rows));
  }

  @Override
  public synchronized Object invoke(Object proxy, Method method, Object[] args)
      throws SQLException {
    String name = method.getName();
    switch (name) {
      case "close":
        closed = true;
        return null;
      case "isClosed":
        return closed;
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "MeterStore metadata result " + columns;
      case "unwrap":
        if (((Class<?>) args[0]).isInstance(proxy)) {
          return proxy;
        }
        throw new SQLException("Cannot unwrap a MeterStore metadata result to " + args[0]);
      case "isWrapperFor":
        return ((Class<?>) args[0]).isInstance(proxy);
      default:
        break;
    }
    if (closed) {
      throw new SQLException("Cannot use a closed MeterStore metadata result", "HY010");
    }
    switch (name) {
      case "next":
        row = Math.min(row + 1, rows.size());
        return row < rows.size();
      case "wasNull":
        return wasNull;
      case "getMetaData":
        return metaData();
      case "findColumn":
        return index(args[0]);
      case "getRow":
        return row >= 0 && row < rows.size() ? row + 1 : 0;
      case "isBeforeFirst":
        return row < 0 && !rows.isEmpty();
      case "isAfterLast":
        return row >= rows.size() && !rows.isEmpty();
      case "getType":
        return ResultSet.TYPE_FORWARD_ONLY;
      case "getConcurrency":
        return ResultSet.CONCUR_READ_ONLY;
      case "getHoldability":
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
      case "getFetchDirection":
        return ResultSet.FETCH_FORWARD;
      case "getFetchSize":
        return 0;
      case "setFetchSize":
      case "setFetchDirection":
      case "clearWarnings":
      case "getWarnings":
      case "getStatement":
        return null;
      default:
        if (name.startsWith("get") && args != null && args.length == 1) {
          return value(name, args[0]);
        }
        throw new SQLFeatureNotSupportedException(
            "Cannot call " + name + " on a MeterStore metadata result: it is forward-only");
    }
  }

  private Object value(String getter, Object column) throws SQLException {
    if (row < 0 || row >= rows.size()) {
      throw new SQLException("Cannot read a MeterStore metadata result: not on a row", "24000");
    }
    Object v = rows.get(row)[index(column) - 1];
    wasNull = v == null;
    switch (getter) {
      case "getObject":
        return v;
      case "getString":
        return v == null ? null : v.toString();
      case "getInt":
        return v == null ? 0 : ((Number) v).intValue();
      case "getShort":
        return v == null ? (short) 0 : ((Number) v).shortValue();
      case "getLong":
        return v == null ? 0L : ((Number) v).longValue();
      case "getBoolean":
        return v != null && !"0".equals(v.toString()) && !"false".equals(v.toString());
      default:
        throw new SQLFeatureNotSupportedException(
            "Cannot call " + getter + " on a MeterStore metadata result");
    }
  }

  private int index(Object column) throws SQLException {
    if (column instanceof Integer i) {
      if (i < 1 || i > columns.size()) {
        throw new SQLException("Invalid column index: " + i + " (1 to " + columns.size() + ")");
      }
      return i;
    }
    String label = String.valueOf(column).toUpperCase(Locale.ROOT);
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(label)) {
        return i + 1;
      }
    }
    throw new SQLException("Invalid column label: " + column + " (one of " + columns + ")");
  }

  private ResultSetMetaData metaData() {
    return (ResultSetMetaData)
        Proxy.newProxyInstance(
            ListResultSet.class.getClassLoader(),
            new Class<?>[] {ResultSetMetaData.class},
            (proxy, method, args) -> columnInfo(proxy, method.getName(), args));
  }

  private Object columnInfo(Object proxy, String name, Object[] args) throws SQLException {
    if ("getColumnCount".equals(name)) {
      return columns.size();
    }
    if ("unwrap".equals(name) || "isWrapperFor".equals(name)) {
      boolean is = ((Class<?>) args[0]).isInstance(proxy);
      return "isWrapperFor".equals(name) ? is : proxy;
    }
    switch (name) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "MeterStore metadata columns " + columns;
      default:
        break;
    }
    if (args == null || args.length != 1 || !(args[0] instanceof Integer)) {
      throw new SQLFeatureNotSupportedException("Cannot call " + name + " on these columns");
    }
    Column c = columns.get(index(args[0]) - 1);
    boolean text = c.type() == Types.VARCHAR;
    switch (name) {
      case "getColumnName":
      case "getColumnLabel":
        return c.name();
      case "getColumnType":
        return c.type();
      case "getColumnTypeName":
        return text ? "VARCHAR" : c.type() == Types.SMALLINT ? "SMALLINT" : "INTEGER";
      case "getColumnClassName":
        return text
            ? "java.lang.String"
            : c.type() == Types.SMALLINT ? "java.lang.Short" : "java.lang.Integer";
      case "getColumnDisplaySize":
      case "getPrecision":
        return text ? 128 : 10;
      case "getScale":
        return 0;
      case "isNullable":
        return ResultSetMetaData.columnNullable;
      case "isSigned":
        return !text;
      case "isReadOnly":
      case "isCaseSensitive":
        return true;
      case "isAutoIncrement":
      case "isCurrency":
      case "isSearchable":
      case "isWritable":
      case "isDefinitelyWritable":
        return false;
      default:
        return "";
    }
  }
}
