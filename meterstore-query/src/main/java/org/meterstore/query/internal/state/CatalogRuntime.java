package org.meterstore.query.internal.state;

import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.query.internal.cold.ColdExecutor;

/**
 * Everything a catalog's queries share: the table definitions, both stores, the clock, the metrics
 * and the pool cold scans run on. Cold tables are opened on first use and cached; a failure to open
 * one is not cached, so a query after the object store recovers succeeds. Thread-safe.
 */
public final class CatalogRuntime {
  private final Map<String, TableDefinition> tables;
  private final HotStore hot;
  private final DataSource hotDataSource;
  private final ColdStore cold;
  private final InstantSource clock;
  private final Duration pinTtl;
  private final QueryMetrics metrics;
  private final Map<String, ColdTable> coldTables = new ConcurrentHashMap<>();
  private final AtomicReference<Object> systemSnapshot = new AtomicReference<>();
  private final ThreadLocal<QueryContext> current = new ThreadLocal<>();
  private final ColdExecutor coldExecutor;
  private final CatalogPointers pointers = new CatalogPointers();

  /** The shared state of one catalog. */
  public CatalogRuntime(
      List<TableDefinition> tables,
      HotStore hot,
      DataSource hotDataSource,
      ColdStore cold,
      InstantSource clock,
      Duration pinTtl,
      QueryMetrics metrics,
      ColdExecutor.Settings coldReads) {
    Map<String, TableDefinition> byName = new LinkedHashMap<>();
    tables.forEach(t -> byName.put(t.name(), t));
    this.tables = Map.copyOf(byName);
    this.hot = hot;
    this.hotDataSource = hotDataSource;
    this.cold = cold;
    this.clock = clock;
    this.pinTtl = pinTtl;
    this.metrics = metrics;
    this.coldExecutor =
        new ColdExecutor(coldReads.threads(), coldReads.inlineBytes(), metrics.cold());
  }

  /**
   * Where cold scans run: a pool of at most the configured number of threads, made on first use and
   * closed with the engine.
   */
  public ColdExecutor coldExecutor() {
    return coldExecutor;
  }

  /** The definitions by table name. */
  public Map<String, TableDefinition> tables() {
    return tables;
  }

  /**
   * The definition of {@code name}.
   *
   * @throws MeterStoreException {@code QUERY} when the catalog has no such table
   */
  public TableDefinition table(String name) {
    TableDefinition def = tables.get(name);
    if (def == null) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "Cannot read table " + name + ": the catalog declares " + tables.keySet());
    }
    return def;
  }

  public HotStore hot() {
    return hot;
  }

  public DataSource hotDataSource() {
    return hotDataSource;
  }

  public ColdStore cold() {
    return cold;
  }

  /**
   * The cold table of {@code def}, opened once.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) when the catalog cannot be reached
   */
  public ColdTable coldTable(TableDefinition def) {
    return coldTables.computeIfAbsent(def.name(), n -> cold.table(def));
  }

  /** Which tables' catalog pointers are read with their hot state. */
  CatalogPointers pointers() {
    return pointers;
  }

  public InstantSource clock() {
    return clock;
  }

  public Duration pinTtl() {
    return pinTtl;
  }

  public QueryMetrics metrics() {
    return metrics;
  }

  /**
   * Runs {@code work} with {@code context} as the statement on this thread: planning reads its read
   * mode, execution binds every scan to its W, snapshot and partitions. Nests (the previous one is
   * restored).
   */
  public <T> T within(QueryContext context, Work<T> work) throws Throwable {
    QueryContext previous = current.get();
    current.set(context);
    try {
      return work.run();
    } finally {
      if (previous == null) {
        current.remove();
      } else {
        current.set(previous);
      }
    }
  }

  /** Work run by {@link #within}. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Throwable;
  }

  /**
   * The statement being planned or executed on this thread.
   *
   * @throws MeterStoreException {@code QUERY} when a MeterStore relation is planned or executed
   *     outside a MeterStore statement (for example through an unwrapped Calcite connection)
   */
  public QueryContext current() {
    QueryContext context = current.get();
    if (context == null) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "Cannot plan or run a MeterStore relation outside a MeterStore statement: use the"
              + " connection QueryEngine.connection() returns, not the Calcite connection it wraps");
    }
    return context;
  }

  /** The statement on this thread, or null. */
  public QueryContext currentOrNull() {
    return current.get();
  }

  /** The last computed {@code system} relations (opaque here), or null before the first refresh. */
  public AtomicReference<Object> systemSnapshot() {
    return systemSnapshot;
  }
}
