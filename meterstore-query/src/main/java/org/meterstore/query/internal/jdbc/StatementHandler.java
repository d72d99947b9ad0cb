package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.meterstore.query.internal.exec.QueryContext;

/**
 * A statement of a MeterStore connection. Every execution reads the tables' state afresh (DESIGN §
 * 7): a plain statement plans each SQL text it executes in a fresh {@link QueryContext}; a prepared
 * statement is planned when prepared (so errors and metadata come at once) and prepared again in a
 * fresh context at every execution, with the parameters and settings set so far applied again, so
 * it reads the current W, snapshot and hot partitions instead of those of its first plan. A
 * context's reader pins are released when its result set closes, when the statement runs again or
 * when it is closed. Updates and batches are refused.
 */
final class StatementHandler implements InvocationHandler {
  private static final Set<String> REFUSED =
      Set.of(
          "executeUpdate", "executeLargeUpdate", "addBatch", "executeBatch", "executeLargeBatch");

  private final ConnectionHandler connection;
  private final ConnectionHandler.Call prepareAgain;
  private final List<Setting> settings = new ArrayList<>();
  private Statement calcite;
  private QueryContext context;
  private Object self;

  /** One setter call of a prepared statement, applied again to each fresh preparation. */
  private record Setting(Method method, Object[] args) {}

  private StatementHandler(
      Statement calcite,
      ConnectionHandler connection,
      QueryContext context,
      ConnectionHandler.Call prepareAgain) {
    this.calcite = calcite;
    this.connection = connection;
    this.context = context;
    this.prepareAgain = prepareAgain;
  }

  /** A plain statement: it plans each SQL text it executes. */
  static Object wrap(Statement calcite, ConnectionHandler c) {
    return wrap(calcite, Statement.class, c, null, null);
  }

  /**
   * A prepared statement planned in {@code ctx}; {@code prepareAgain} prepares its SQL again (it
   * runs with the fresh context current).
   */
  static Object wrapPrepared(
      PreparedStatement calcite,
      ConnectionHandler c,
      QueryContext ctx,
      ConnectionHandler.Call prepareAgain) {
    return wrap(calcite, PreparedStatement.class, c, ctx, prepareAgain);
  }

  private static Object wrap(
      Statement calcite,
      Class<? extends Statement> iface,
      ConnectionHandler c,
      QueryContext ctx,
      ConnectionHandler.Call prepareAgain) {
    StatementHandler handler = new StatementHandler(calcite, c, ctx, prepareAgain);
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
        if (withSql) {
          return planAndRun(method, args);
        }
        return prepareAgain != null ? prepareAgainAndRun(method, args) : result(call(method, args));
      case "getResultSet":
        return result(call(method, args));
      case "clearParameters":
        forgetParameters();
        return call(method, args);
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
        if (prepareAgain != null && name.startsWith("set")) {
          remember(method, args);
        }
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

  /** A prepared statement's execution: prepared again in a fresh context, settings re-applied. */
  private Object prepareAgainAndRun(Method method, Object[] args) throws Throwable {
    closeContext();
    QueryContext fresh = connection.session().newContext();
    Statement next;
    try {
      next = (Statement) connection.plan(fresh, prepareAgain);
      for (Setting s : settings()) {
        invokeOn(next, s.method(), s.args());
      }
    } catch (Throwable t) {
      fresh.close();
      throw t;
    }
    Statement old;
    synchronized (this) {
      old = calcite;
      calcite = next;
      context = fresh;
    }
    closeQuietly(old);
    return result(call(method, args));
  }

  private synchronized void remember(Method method, Object[] args) {
    settings.add(new Setting(method, args == null ? null : args.clone()));
  }

  private synchronized void forgetParameters() {
    settings.removeIf(s -> s.method().getDeclaringClass() == PreparedStatement.class);
  }

  private synchronized List<Setting> settings() {
    return List.copyOf(settings);
  }

  private Object result(Object value) {
    if (value instanceof ResultSet rs) {
      QueryContext owner;
      synchronized (this) {
        owner = context;
      }
      return ResultSetHandler.wrap(rs, self, () -> release(owner));
    }
    return value;
  }

  /** Releases {@code owner}'s pins (its result set closed); the statement may run again. */
  private void release(QueryContext owner) {
    if (owner == null) {
      return;
    }
    synchronized (this) {
      if (context == owner) {
        context = null;
      }
    }
    owner.close();
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
    Statement target;
    synchronized (this) {
      target = calcite;
    }
    return invokeOn(target, method, args);
  }

  private static Object invokeOn(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw Errors.translate(e);
    }
  }

  private static void closeQuietly(Statement statement) {
    try {
      statement.close();
    } catch (SQLException e) {
      // the replaced preparation holds nothing of ours any more: its context is closed
    }
  }
}
