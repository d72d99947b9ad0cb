package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.query.internal.state.QueryContext;
import org.meterstore.query.internal.state.Session;

/**
 * The connection a catalog hands out: Calcite's, with statements that plan and run inside a {@link
 * QueryContext}, read-only enforcement, and closing that releases every statement's pins. The calls
 * tools make on connect ({@code setReadOnly(false)}, {@code setAutoCommit}, isolation, client info,
 * …) are accepted and change nothing that matters ({@link ConnectionSettings}); the connection
 * stays read-only.
 */
public final class ConnectionHandler implements InvocationHandler {
  private final Connection calcite;
  private final Session session;
  private final ReadOnlyGuard guard;
  private final String schemaName;
  private final Set<StatementHandler> statements = ConcurrentHashMap.newKeySet();
  private final ConnectionSettings settings;
  private Connection self;

  private ConnectionHandler(
      Connection calcite, Session session, ReadOnlyGuard guard, String schemaName) {
    this.calcite = calcite;
    this.session = session;
    this.guard = guard;
    this.schemaName = schemaName;
    this.settings = new ConnectionSettings(calcite);
  }

  /**
   * A read-only MeterStore connection around {@code calcite}, whose tables are in schema {@code
   * schemaName}.
   */
  public static Connection wrap(
      Connection calcite, Session session, ReadOnlyGuard guard, String schemaName) {
    ConnectionHandler handler = new ConnectionHandler(calcite, session, guard, schemaName);
    handler.self =
        (Connection)
            Proxy.newProxyInstance(
                ConnectionHandler.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                handler);
    return handler.self;
  }

  /**
   * This connection as its statements hand it out ({@code Statement.getConnection()}): the
   * read-only proxy, never Calcite's connection underneath, which would accept {@code
   * setReadOnly(false)} and statements the guard never saw.
   */
  Connection self() {
    return self;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    switch (name) {
      case "createStatement":
        return track(StatementHandler.wrap((Statement) call(method, args), this));
      case "prepareStatement":
        return prepare(method, args);
      case "prepareCall":
        throw ReadOnlyGuard.refused("CALL");
      case "setReadOnly":
        if (!Boolean.TRUE.equals(args[0])) {
          SQLWarning ignored =
              new SQLWarning(
                  "setReadOnly(false) ignored: MeterStore connections are read-only; only SELECT,"
                      + " VALUES and EXPLAIN are accepted",
                  ReadOnlyGuard.READ_ONLY_STATE);
          // A notice, not a failure: tools that print warnings (sqlline) show no stack trace.
          ignored.setStackTrace(new StackTraceElement[0]);
          settings.warn(ignored);
        }
        return null;
      case "isReadOnly":
        return true;
      case "nativeSQL": // MeterStore's SQL is its native SQL
        return args[0];
      case "getMetaData":
        return MetaDataHandler.wrap(
            (DatabaseMetaData) call(method, args), self, schemaName, session.runtime().tables());
      case "close":
        closeStatements();
        return call(method, args);
      case "unwrap":
        return ((Class<?>) args[0]).isInstance(proxy) ? proxy : call(method, args);
      case "isWrapperFor":
        return ((Class<?>) args[0]).isInstance(proxy) || (Boolean) call(method, args);
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      default:
        return settings.handles(name) ? settings.invoke(name, args) : call(method, args);
    }
  }

  private Object prepare(Method method, Object[] args) throws Throwable {
    String sql = (String) args[0];
    boolean explain = guard.check(sql);
    QueryContext planning = session.newContext();
    if (explain) {
      planning.explaining();
    }
    try {
      PreparedStatement prepared =
          (PreparedStatement) session.runtime().within(planning, () -> call(method, args));
      return track(StatementHandler.wrapPrepared(prepared, this));
    } finally {
      planning.close();
    }
  }

  Session session() {
    return session;
  }

  ReadOnlyGuard guard() {
    return guard;
  }

  void forget(StatementHandler statement) {
    statements.remove(statement);
  }

  private Object track(Object statementProxy) {
    statements.add((StatementHandler) Proxy.getInvocationHandler(statementProxy));
    return statementProxy;
  }

  private void closeStatements() {
    for (StatementHandler s : Set.copyOf(statements)) {
      s.closeContext();
    }
    statements.clear();
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(calcite, args);
    } catch (InvocationTargetException e) {
      throw Errors.translate(e);
    }
  }

  /** A Calcite call that may throw. */
  @FunctionalInterface
  interface Call {
    Object run() throws Throwable;
  }

  static SQLException closed() {
    return new SQLException("Cannot use a closed MeterStore statement", "HY010");
  }
}
