package org.meterstore.query.internal.state;

import org.meterstore.query.mode.ReadMode;

/**
 * One connection's view of a catalog: its read mode and a way to open another connection of the
 * same catalog. The statement being planned or executed on a thread is the runtime's ({@link
 * CatalogRuntime#current()}), so that a plan shared by several connections binds to whichever
 * statement runs it.
 */
public final class Session {
  private final CatalogRuntime runtime;
  private final ReadMode mode;
  private final Opener opener;
  private final String settings;
  private final Object systemSnapshot;

  /** Opens another connection of the same catalog (for table functions that query it). */
  @FunctionalInterface
  public interface Opener {
    java.sql.Connection open() throws java.sql.SQLException;
  }

  /**
   * @param settings the connection's Calcite properties as text: plans are shared only between
   *     connections with equal settings and read mode
   * @param systemSnapshot the {@code system} relations computed for this connection (opaque here),
   *     or null when it did not ask for them
   */
  public Session(
      CatalogRuntime runtime,
      ReadMode mode,
      String settings,
      Object systemSnapshot,
      Opener opener) {
    this.runtime = runtime;
    this.mode = mode;
    this.settings = settings;
    this.systemSnapshot = systemSnapshot;
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
    return new QueryContext(runtime, mode, settings, systemSnapshot);
  }
}
