package org.meterstore.query.internal.exec;

import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.mode.ReadMode;

/**
 * One connection's view of a catalog: its read mode and the statement being planned on the current
 * thread. Calcite plans on the calling thread, so the JDBC layer sets the statement's {@link
 * QueryContext} around each prepare and the tables pick it up from here.
 */
public final class Session {
  private final CatalogRuntime runtime;
  private final ReadMode mode;
  private final ThreadLocal<QueryContext> planning = new ThreadLocal<>();
  private final Opener opener;

  /** Opens another connection of the same catalog (for table functions that query it). */
  @FunctionalInterface
  public interface Opener {
    java.sql.Connection open() throws java.sql.SQLException;
  }

  public Session(CatalogRuntime runtime, ReadMode mode, Opener opener) {
    this.runtime = runtime;
    this.mode = mode;
    this.opener = opener;
  }

  /** A new connection of the same catalog in the current read mode; the caller closes it. */
  public java.sql.Connection openConnection() throws java.sql.SQLException {
    return opener.open();
  }

  public CatalogRuntime runtime() {
    return runtime;
  }

  public ReadMode mode() {
    return mode;
  }

  /** A new statement context in this connection's mode. */
  public QueryContext newContext() {
    return new QueryContext(runtime, mode);
  }

  /** Makes {@code context} the one statements planned on this thread use; null clears it. */
  public void planning(QueryContext context) {
    if (context == null) {
      planning.remove();
    } else {
      planning.set(context);
    }
  }

  /**
   * The context of the statement being planned on this thread.
   *
   * @throws MeterStoreException {@code QUERY} when a MeterStore relation is planned outside a
   *     MeterStore statement (for example through an unwrapped Calcite connection)
   */
  public QueryContext current() {
    QueryContext context = planning.get();
    if (context == null) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "Cannot plan a MeterStore relation outside a MeterStore statement: use the connection"
              + " QueryEngine.connection() returns, not the Calcite connection it wraps");
    }
    return context;
  }
}
