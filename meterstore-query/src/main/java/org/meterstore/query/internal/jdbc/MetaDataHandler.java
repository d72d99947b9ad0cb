package org.meterstore.query.internal.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.jdbc.ListResultSet.Column;

/**
 * The {@link DatabaseMetaData} of a MeterStore connection: Calcite's answers for tables, columns
 * and types, with what BI tools also ask and Calcite cannot know — the product, that the connection
 * is read-only and has no transactions, the identifier quote, the table types, no catalogs, and
 * each table's primary key (the merge key of {@code T}; the merge key and {@code version} of {@code
 * T_versions}, as the hot tier keys them). Its connection is the MeterStore connection, never
 * Calcite's.
 */
final class MetaDataHandler implements InvocationHandler {
  /** This build's version, from the filtered {@code meterstore-query.properties}. */
  static final String VERSION = version();

  private static final List<Column> PRIMARY_KEY =
      List.of(
          new Column("TABLE_CAT", Types.VARCHAR),
          new Column("TABLE_SCHEM", Types.VARCHAR),
          new Column("TABLE_NAME", Types.VARCHAR),
          new Column("COLUMN_NAME", Types.VARCHAR),
          new Column("KEY_SEQ", Types.SMALLINT),
          new Column("PK_NAME", Types.VARCHAR));

  private final DatabaseMetaData calcite;
  private final Connection connection;
  private final String schemaName;
  private final Map<String, TableDefinition> tables;

  private MetaDataHandler(
      DatabaseMetaData calcite,
      Connection connection,
      String schemaName,
      Map<String, TableDefinition> tables) {
    this.calcite = calcite;
    this.connection = connection;
    this.schemaName = schemaName;
    this.tables = tables;
  }

  /** Calcite's {@code calcite} as the metadata of {@code connection}. */
  static DatabaseMetaData wrap(
      DatabaseMetaData calcite,
      Connection connection,
      String schemaName,
      Map<String, TableDefinition> tables) {
    return (DatabaseMetaData)
        Proxy.newProxyInstance(
            MetaDataHandler.class.getClassLoader(),
            new Class<?>[] {DatabaseMetaData.class},
            new MetaDataHandler(calcite, connection, schemaName, tables));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "getConnection":
        return connection;
      case "getDatabaseProductName":
        return "MeterStore";
      case "getDriverName":
        return "MeterStore JDBC";
      case "getDatabaseProductVersion":
      case "getDriverVersion":
        return VERSION;
      case "getDatabaseMajorVersion":
      case "getDriverMajorVersion":
        return versionPart(0);
      case "getDatabaseMinorVersion":
      case "getDriverMinorVersion":
        return versionPart(1);
      case "isReadOnly":
        return true;
      case "getIdentifierQuoteString":
        return "\"";
      case "supportsTransactions":
      case "supportsDataDefinitionAndDataManipulationTransactions":
      case "supportsDataManipulationTransactionsOnly":
      case "supportsMultipleTransactions":
      case "supportsOpenCursorsAcrossCommit":
      case "supportsOpenStatementsAcrossCommit":
      case "supportsSavepoints":
        return false;
      case "getDefaultTransactionIsolation":
        return Connection.TRANSACTION_NONE;
      case "supportsTransactionIsolationLevel":
        return (Integer) args[0] == Connection.TRANSACTION_NONE;
      case "getTableTypes":
        return ListResultSet.of(
            List.of(new Column("TABLE_TYPE", Types.VARCHAR)),
            List.of(new Object[] {"SYSTEM TABLE"}, new Object[] {"TABLE"}));
      case "getCatalogs": // Calcite lists one catalog named null; there is no catalog level
        return ListResultSet.of(List.of(new Column("TABLE_CAT", Types.VARCHAR)), List.of());
      case "getPrimaryKeys":
        return primaryKeys((String) args[1], (String) args[2]);
      case "unwrap":
        return ((Class<?>) args[0]).isInstance(proxy) ? proxy : call(method, args);
      case "isWrapperFor":
        return ((Class<?>) args[0]).isInstance(proxy) || (Boolean) call(method, args);
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      default:
        return call(method, args);
    }
  }

  /**
   * The primary key of {@code table} in {@code schema} (null: any schema), ordered by column name
   * as JDBC asks; {@code KEY_SEQ} is the position in the key.
   */
  private ResultSet primaryKeys(String schema, String table) {
    List<Object[]> rows = new ArrayList<>();
    if (table != null && (schema == null || schema.equals(schemaName))) {
      List<String> key = key(table);
      for (int i = 0; i < key.size(); i++) {
        rows.add(
            new Object[] {null, schemaName, table, key.get(i), (short) (i + 1), table + "_pk"});
      }
    }
    rows.sort((a, b) -> ((String) a[3]).compareTo((String) b[3]));
    return ListResultSet.of(PRIMARY_KEY, rows);
  }

  private List<String> key(String table) {
    TableDefinition current = tables.get(table);
    if (current != null) {
      return current.mergeKey();
    }
    String suffix = "_versions";
    if (table.endsWith(suffix)) {
      TableDefinition versions = tables.get(table.substring(0, table.length() - suffix.length()));
      if (versions != null) {
        return versions.primaryKey();
      }
    }
    return List.of();
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(calcite, args);
    } catch (InvocationTargetException e) {
      throw Errors.translate(e);
    }
  }

  private static int versionPart(int index) {
    String[] parts = VERSION.split("[.-]");
    return parts.length > index && Pattern.matches("\\d+", parts[index])
        ? Integer.parseInt(parts[index])
        : 0;
  }

  private static String version() {
    Properties p = new Properties();
    try (InputStream in =
        MetaDataHandler.class.getResourceAsStream("meterstore-query.properties")) {
      if (in == null) {
        throw new IllegalStateException("meterstore-query.properties is missing from the jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }
}
