package org.meterstore.query.internal.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import org.meterstore.query.internal.state.QueryContext;

/**
 * Result sets whose errors are translated, whose statement is the statement's proxy, whose {@code
 * next} runs with the execution that made them current (a scan Calcite opens lazily binds to that
 * execution's state) and whose close releases that execution's reader pins.
 */
final class ResultSetHandler implements InvocationHandler {
  private final ResultSet calcite;
  private final Object statement;
  private final Runnable onClose;
  private final QueryContext execution;

  private ResultSetHandler(
      ResultSet calcite, Object statement, QueryContext execution, Runnable onClose) {
    this.calcite = calcite;
    this.statement = statement;
    this.execution = execution;
    this.onClose = onClose;
  }

  /**
   * {@code rs} of {@code execution} as the statement proxy {@code statement}'s; {@code onClose}
   * runs after its close.
   */
  static ResultSet wrap(ResultSet rs, Object statement, QueryContext execution, Runnable onClose) {
    return (ResultSet)
        Proxy.newProxyInstance(
            ResultSetHandler.class.getClassLoader(),
            new Class<?>[] {ResultSet.class},
            new ResultSetHandler(rs, statement, execution, onClose));
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "getStatement":
        return statement;
      case "next":
        return execution == null
            ? invokeCalcite(method, args)
            : execution.runtime().within(execution, () -> invokeCalcite(method, args));
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
