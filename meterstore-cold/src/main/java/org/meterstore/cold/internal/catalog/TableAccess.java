package org.meterstore.cold.internal.catalog;

import java.time.Instant;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.StaticTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableOperations;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.table.CatalogRow;

/**
 * Loads one cold table from its catalog: afresh on every {@link #load()}, so that callers never
 * commit against a base they did not just read, and refreshed in place for {@link #read} (reads
 * that commit nothing, such as the watermark every write asks for). An optional decorator wraps the
 * table's {@link TableOperations}: the seam through which tests inject refused and unknown commits.
 *
 * <p>A load first asks the object store about the metadata file the last load of this table saw
 * ({@link StoreProbe}), so an unreachable store fails it at once instead of after Iceberg's
 * metadata retries. A {@link #read} refreshes without asking: the metadata file is read only when
 * the catalog's pointer moved.
 */
public final class TableAccess {
  private final Catalog catalog;
  private final TableIdentifier identifier;
  private final String tableName;
  private volatile UnaryOperator<TableOperations> decorator;
  private volatile Consumer<Instant> afterCommit;

  /**
   * Loaded tables kept for {@link #read}, most recently used first: one per concurrent reader, at
   * most {@link #MAX_IDLE_READERS} kept between calls. A table that failed to refresh is dropped.
   */
  private final Deque<Table> readers = new ConcurrentLinkedDeque<>();

  private static final int MAX_IDLE_READERS = 16;
  private final StoreProbe probe;

  /**
   * Access to {@code identifier} in {@code catalog}; {@code tableName} names it in messages; {@code
   * probe} is the store's record of the metadata files last loaded.
   */
  public TableAccess(
      Catalog catalog, TableIdentifier identifier, String tableName, StoreProbe probe) {
    this.catalog = catalog;
    this.probe = probe;
    this.identifier = identifier;
    this.tableName = tableName;
  }

  /** The MeterStore table name. */
  public String tableName() {
    return tableName;
  }

  /** The Iceberg identifier. */
  public TableIdentifier identifier() {
    return identifier;
  }

  /**
   * What runs after every commit to this table lands ({@link #landed}), given the committer's
   * {@code now}: the resolved view's publish. It must not throw; null runs nothing.
   */
  public void afterCommit(Consumer<Instant> action) {
    this.afterCommit = action;
  }

  /** Called by the commit loop once a commit landed; runs {@link #afterCommit}'s action. */
  public void landed(Instant now) {
    Consumer<Instant> action = afterCommit;
    if (action != null) {
      action.accept(now);
    }
  }

  /**
   * Asks the object store about the metadata file the last load saw, as every load does first: an
   * unreachable store fails at once ({@code STORAGE}, retryable) instead of after the file system's
   * own retries. Nothing is asked before the first load.
   */
  public void probe() {
    probe.check(identifier, tableName);
  }

  /** Wraps the operations of every table loaded from now on; null removes the wrapper. */
  public void decorate(UnaryOperator<TableOperations> newDecorator) {
    this.decorator = newDecorator;
  }

  /**
   * The table as the catalog has it now.
   *
   * @throws MeterStoreException {@code CONFIG} when the table does not exist, {@code STORAGE} when
   *     the catalog or its metadata cannot be read
   */
  public Table load() {
    Table table = loadRaw();
    UnaryOperator<TableOperations> d = decorator;
    if (d != null && table instanceof HasTableOperations) {
      return new BaseTable(d.apply(((HasTableOperations) table).operations()), table.name());
    }
    return table;
  }

  /**
   * Applies {@code read} to the table as the catalog has it now, for reads that commit nothing (the
   * watermark of every write, the snapshot every query pins). Each call borrows one of a few loaded
   * tables kept for reading and refreshes it: the catalog is asked for its current metadata
   * location, and that table's metadata file is read again only when the location moved. No lock is
   * held across the catalog's round trip, so concurrent queries refresh side by side; a borrowed
   * table is never refreshed by another caller midway.
   *
   * @throws MeterStoreException as {@link #load()}
   */
  public <T> T read(Function<Table, T> read) {
    Table table = readers.pollFirst();
    if (table == null) {
      table = loadRaw();
    } else {
      refresh(table);
    }
    T result = read.apply(table);
    if (readers.size() < MAX_IDLE_READERS) {
      readers.offerFirst(table);
    }
    return result;
  }

  private void refresh(Table table) {
    try {
      table.refresh();
    } catch (RuntimeException e) {
      throw loadFailure(e);
    }
  }

  /**
   * The table as the catalog has it now, frozen: a table over the current metadata that is never
   * refreshed (it commits nothing), made from the table {@link #read} keeps, so the metadata file
   * is parsed again only when the catalog's pointer moved. For snapshot views, which read one
   * pinned snapshot from many threads while later reads refresh the shared table.
   *
   * @throws MeterStoreException as {@link #load()}
   */
  public Table frozen() {
    return read(
        table -> {
          if (table instanceof HasTableOperations h) {
            TableOperations ops = h.operations();
            return new BaseTable(
                new StaticTableOperations(ops.current(), ops.io(), ops.locationProvider()),
                table.name());
          }
          return loadRaw();
        });
  }

  /** The table frozen at a metadata location, kept while that location is the latest asked for. */
  private record Frozen(String location, Table table) {}

  private volatile Frozen lastFrozen;

  /**
   * The table frozen at {@code metadataLocation}, a location the caller read from the catalog
   * itself: the metadata file is read on the first call for a location, later calls for the same
   * location return the same table. The catalog is not asked (a table is loaded once for its file
   * IO when none was loaded before).
   *
   * @throws MeterStoreException {@code STORAGE} when the metadata file cannot be read
   */
  public Table frozenAt(String metadataLocation) {
    Frozen last = lastFrozen;
    if (last != null && last.location().equals(metadataLocation)) {
      return last.table();
    }
    Table any = readers.peekFirst();
    if (any == null) {
      any = loadRaw();
      readers.offerFirst(any);
    }
    Table table;
    try {
      StaticTableOperations ops = new StaticTableOperations(metadataLocation, any.io());
      ops.current(); // read now, so a failure is this call's
      table = new BaseTable(ops, any.name());
    } catch (RuntimeException e) {
      throw loadFailure(e);
    }
    lastFrozen = new Frozen(metadataLocation, table);
    return table;
  }

  /** The table's row in Iceberg's JDBC catalog; empty for other catalogs. */
  public Optional<CatalogRow> catalogRow() {
    if (!(catalog instanceof JdbcCatalog)) {
      return Optional.empty();
    }
    return Optional.of(
        new CatalogRow(catalog.name(), identifier.namespace().toString(), identifier.name()));
  }

  private Table loadRaw() {
    probe.check(identifier, tableName);
    try {
      Table table = catalog.loadTable(identifier);
      if (table instanceof HasTableOperations h && h.operations().current() != null) {
        probe.saw(identifier, table.io(), h.operations().current().metadataFileLocation());
      }
      return table;
    } catch (RuntimeException e) {
      throw loadFailure(e);
    }
  }

  /** A failed load or refresh as callers see it: a missing table is CONFIG, the rest STORAGE. */
  private MeterStoreException loadFailure(RuntimeException e) {
    if (e instanceof NoSuchTableException) {
      return new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot load cold table " + tableName + ": " + identifier + " does not exist",
          e);
    }
    return new MeterStoreException(
        ErrorKind.STORAGE, "Cannot load cold table " + tableName + ": " + e, e);
  }
}
