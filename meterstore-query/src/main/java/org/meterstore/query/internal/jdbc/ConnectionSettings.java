package org.meterstore.query.internal.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The settings tools change on connect — sqlline, DBeaver and pools call {@code setAutoCommit},
 * {@code setTransactionIsolation}, {@code setHoldability}, {@code setCatalog}, {@code
 * setClientInfo}, {@code setNetworkTimeout}, {@code commit} — kept here so the calls succeed: a
 * read-only connection without transactions has nothing to commit or isolate, so each is recorded
 * and read back and changes nothing else. Also holds the connection's warnings (a refused {@code
 * setReadOnly(false)}). Thread-safe.
 */
final class ConnectionSettings {
  private static final Set<String> HANDLED =
      Set.of(
          "getWarnings",
          "clearWarnings",
          "setAutoCommit",
          "getAutoCommit",
          "commit",
          "rollback",
          "setTransactionIsolation",
          "getTransactionIsolation",
          "setHoldability",
          "getHoldability",
          "setNetworkTimeout",
          "getNetworkTimeout",
          "setClientInfo",
          "getClientInfo",
          "setCatalog",
          "getCatalog",
          "setTypeMap",
          "getTypeMap",
          "isValid");

  private final Connection calcite;
  private final Properties clientInfo = new Properties();
  private SQLWarning warnings;
  private boolean autoCommit = true;
  private int isolation = Connection.TRANSACTION_NONE;
  private int holdability = ResultSet.CLOSE_CURSORS_AT_COMMIT;
  private int networkTimeout;
  private String catalog;
  private Map<String, Class<?>> typeMap = Map.of();

  ConnectionSettings(Connection calcite) {
    this.calcite = calcite;
  }

  boolean handles(String method) {
    return HANDLED.contains(method);
  }

  synchronized void warn(SQLWarning warning) {
    if (warnings == null) {
      warnings = warning;
    } else {
      warnings.setNextWarning(warning);
    }
  }

  /** Runs a {@link #handles handled} call. */
  synchronized Object invoke(String method, Object[] args) throws SQLException {
    if ("isValid".equals(method)) {
      if ((Integer) args[0] < 0) {
        throw new SQLException("Invalid timeout: " + args[0] + " (0 or more seconds)", "HY024");
      }
      return !calcite.isClosed();
    }
    if (calcite.isClosed()) {
      throw new SQLException("Cannot use a closed MeterStore connection", "08003");
    }
    switch (method) {
      case "getWarnings":
        return warnings;
      case "clearWarnings":
        warnings = null;
        return null;
      case "setAutoCommit":
        autoCommit = (Boolean) args[0];
        return null;
      case "getAutoCommit":
        return autoCommit;
      case "setTransactionIsolation":
        isolation = (Integer) args[0];
        return null;
      case "getTransactionIsolation":
        return isolation;
      case "setHoldability":
        holdability = (Integer) args[0];
        return null;
      case "getHoldability":
        return holdability;
      case "setNetworkTimeout":
        networkTimeout = (Integer) args[1];
        return null;
      case "getNetworkTimeout":
        return networkTimeout;
      case "setCatalog":
        catalog = (String) args[0];
        return null;
      case "getCatalog":
        return catalog;
      case "setTypeMap":
        @SuppressWarnings("unchecked")
        Map<String, Class<?>> map = (Map<String, Class<?>>) args[0];
        typeMap = map == null ? Map.of() : Map.copyOf(map);
        return null;
      case "getTypeMap":
        return new HashMap<>(typeMap);
      case "setClientInfo":
        setClientInfo(args);
        return null;
      case "getClientInfo":
        return args == null || args.length == 0
            ? (Properties) clientInfo.clone()
            : clientInfo.getProperty((String) args[0]);
      default: // commit, rollback: nothing was written, so nothing to end
        return null;
    }
  }

  private void setClientInfo(Object[] args) {
    if (args.length == 1) {
      clientInfo.clear();
      Properties given = (Properties) args[0];
      if (given != null) {
        given.stringPropertyNames().forEach(k -> clientInfo.setProperty(k, given.getProperty(k)));
      }
    } else if (args[1] == null) {
      clientInfo.remove(args[0]);
    } else {
      clientInfo.setProperty((String) args[0], (String) args[1]);
    }
  }
}
