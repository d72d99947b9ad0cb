package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;
import org.meterstore.query.internal.state.QueryContext;

/**
 * A statement of a MeterStore connection. Plans do not depend on W, so a statement is planned once
 * per SQL text (and served from the engine's plan cache after that) while every execution reads the
 * tables' state afresh (DESIGN § 7): each execution runs in a new {@link QueryContext}, which reads
 * W, pins the snapshot and the hot partitions on first use and releases the pins when the
 * execution's result set closes, when the statement runs again or when it is closed. Updates and
 * batches are refused.
 */
final class StatementHandler implements InvocationHandler {
  private static final Set<String> REFUSED =
      Set.of(
          "executeUpdate", "executeLargeUpdate", "addBatch", "executeBatch", "executeLargeBatch");

  private final ConnectionHandler connection;
  private final Statement calcite;
  private final boolean prepared;
  private QueryContext context;
  private Object self;

  private StatementHandler(Statement calcite, ConnectionHandler connection, boolean prepared) {
    this.calcite = calcite;
    this.connection = connection;
    this.prepared = prepared;
  }

  /** A plain statement: it plans (or finds in the cache) each SQL text it executes. */
  static Object wrap(Statement calcite, ConnectionHandler c) {
    return wrap(calcite, Statement.class, c, false);
  }

  /** A prepared statement, planned already. */
  static Object wrapPrepared(PreparedStatement calcite, ConnectionHandler c) {
    return wrap(calcite, PreparedStatement.class, c, true);
  }

  private static Object wrap(
      Statement calcite, Class<? extends Statement> iface, ConnectionHandler c, boolean prepared) {
    StatementHandler handler = new StatementHandler(calcite, c, prepared);
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
          boolean explain = connection.guard().check((String) args[0]);
          return run(method, args, explain);
        }
        return prepared ? run(method, args, false) : result(call(method, args));
      case "getResultSet":
        return result(call(method, args));
      case "close":
        closeContext();
        connection.forget(this);
        return call(method, args);
      case "getConnection":
        return connection.self();
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
   * One execution in a fresh context (planning a SQL text first, or finding it in the cache): the
   * previous execution's pins are released, this one's are held until its result set closes.
   */
  private Object run(Method method, Object[] args, boolean explain) throws Throwable {
    closeContext();
    QueryContext fresh = connection.session().newContext();
    if (explain) {
      fresh.explaining();
    }
    synchronized (this) {
      context = fresh;
    }
    try {
      return result(fresh.runtime().within(fresh, () -> call(method, args, fresh)));
    } catch (Throwable t) {
      release(fresh);
      throw t;
    }
  }

  private Object result(Object value) {
    if (value instanceof ResultSet rs) {
      QueryContext owner;
      synchronized (this) {
        owner = context;
      }
      return ResultSetHandler.wrap(rs, self, owner, () -> release(owner));
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
    try {
      return method.invoke(calcite, args);
    } catch (InvocationTargetException e) {
      throw Errors.translate(e);
    }
  }

  /** {@link #call(Method, Object[])} of an execution: a plan that cannot run is forgotten. */
  private Object call(Method method, Object[] args, QueryContext statement) throws Throwable {
    try {
      return method.invoke(calcite, args);
    } catch (InvocationTargetException e) {
      if (Errors.poisonsPlan(e.getCause())) {
        statement.forgetPlan();
      }
      throw Errors.translate(e);
    }
  }
}
