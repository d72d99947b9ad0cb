package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;

/**
 * Result sets whose errors are translated, whose statement is the statement's proxy, and whose
 * close releases the reader pins of the execution that made them.
 */
final class ResultSetHandler implements InvocationHandler {
  private final ResultSet calcite;
  private final Object statement;
  private final Runnable onClose;

  private ResultSetHandler(ResultSet calcite, Object statement, Runnable onClose) {
    this.calcite = calcite;
    this.statement = statement;
    this.onClose = onClose;
  }

  /**
   * {@code rs} as the statement proxy {@code statement}'s; {@code onClose} runs after its close.
   */
  static ResultSet wrap(ResultSet rs, Object statement, Runnable onClose) {
    return (ResultSet)
        Proxy.newProxyInstance(
            ResultSetHandler.class.getClassLoader(),
            new Class<?>[] {ResultSet.class},
            new ResultSetHandler(rs, statement, onClose));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "getStatement":
        return statement;
      case "close":
        try {
          return invokeCalcite(method, args);
        } finally {
          onClose.run();
        }
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
