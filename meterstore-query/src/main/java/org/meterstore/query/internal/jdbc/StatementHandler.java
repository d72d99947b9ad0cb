package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.meterstore.query.internal.exec.QueryContext;

/**
 * A statement of a MeterStore connection. A plain statement plans each SQL text it executes in a
 * fresh {@link QueryContext} (the previous one is released); a prepared statement was planned once
 * when prepared and keeps its context, and so its watermark, snapshot and pins, until it is closed.
 * Updates and batches are refused.
 */
final class StatementHandler implements InvocationHandler {
  private static final Set<String> REFUSED =
      Set.of(
          "executeUpdate", "executeLargeUpdate", "addBatch", "executeBatch", "executeLargeBatch");

  private final Statement calcite;
  private final ConnectionHandler connection;
  private QueryContext context;
  private Object self;

  private StatementHandler(Statement calcite, ConnectionHandler connection, QueryContext context) {
    this.calcite = calcite;
    this.connection = connection;
    this.context = context;
  }

  static Object wrap(
      Statement calcite, Class<? extends Statement> iface, ConnectionHandler c, QueryContext ctx) {
    StatementHandler handler = new StatementHandler(calcite, c, ctx);
    handler.self =
        Proxy.newProxyInstance(
            StatementHandler.class.getClassLoader(), new Class<?>[] {iface}, handler);
    return handler.self;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    if (REFUSED.contains(name)) {
      throw ReadOnlyGuard.refused(name.startsWith("execute") ? "an update" : "a batch");
    }
    boolean withSql = args != null && args.length > 0 && args[0] instanceof String;
    switch (name) {
      case "executeQuery":
      case "execute":
        return withSql ? planAndRun(method, args) : result(call(method, args));
      case "getResultSet":
        return result(call(method, args));
      case "close":
        closeContext();
        connection.forget(this);
        return call(method, args);
      case "getConnection":
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
        return call(method, args);
    }
  }

  private Object planAndRun(Method method, Object[] args) throws Throwable {
    connection.guard().check((String) args[0]);
    closeContext();
    QueryContext fresh = connection.session().newContext();
    synchronized (this) {
      context = fresh;
    }
    return result(connection.plan(fresh, () -> call(method, args)));
  }

  private Object result(Object value) {
    if (value instanceof ResultSet rs) {
      return ResultSetHandler.wrap(rs, self);
    }
    return value;
  }

  /** Releases the current context's pins. */
  void closeContext() {
    QueryContext old;
    synchronized (this) {
      old = context;
      context = null;
    }
    if (old != null) {
      old.close();
    }
  }

  private Object call(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(calcite, args);
    } catch (InvocationTargetException e) {
      throw Errors.translate(e);
    }
  }

  /** Result sets whose errors are translated and whose statement is the proxy. */
  static final class ResultSetHandler implements InvocationHandler {
    private final ResultSet calcite;
    private final Object statement;

    private ResultSetHandler(ResultSet calcite, Object statement) {
      this.calcite = calcite;
      this.statement = statement;
    }

    static ResultSet wrap(ResultSet rs, Object statement) {
      return (ResultSet)
          Proxy.newProxyInstance(
              ResultSetHandler.class.getClassLoader(),
              new Class<?>[] {ResultSet.class},
              new ResultSetHandler(rs, statement));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "getStatement":
          return statement;
        case "unwrap":
          return ((Class<?>) args[0]).isInstance(proxy) ? proxy : invokeCalcite(method, args);
        case "equals":
          return proxy == args[0];
        case "hashCode":
          return System.identityHashCode(proxy);
        default:
          return invokeCalcite(method, args);
      }
    }

    private Object invokeCalcite(Method method, Object[] args) throws Throwable {
      try {
        return method.invoke(calcite, args);
      } catch (InvocationTargetException e) {
        throw Errors.translate(e);
      }
    }
  }
}
