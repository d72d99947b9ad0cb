package org.meterstore.cold;

import io.opentelemetry.api.OpenTelemetry;
import java.io.Closeable;
import java.io.IOException;
import java.util.Objects;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.internal.IcebergColdTable;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import org.meterstore.cold.internal.catalog.StoreProbe;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.commit.CommitSupport;
import org.meterstore.cold.internal.commit.WriteSettings;
import org.meterstore.cold.internal.drift.SchemaDrift;
import org.meterstore.cold.internal.layout.TableLayout;
import org.meterstore.cold.internal.snapshot.PlannedFiles;
import org.meterstore.cold.internal.view.ViewPublisher;
import org.meterstore.cold.scan.FooterCache;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.cold.view.ResolvedView;
import org.meterstore.cold.view.ResolvedViewSql;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cold tier of one deployment: an Iceberg catalog and the namespace of MeterStore's tables, and
 * the cache of parsed Parquet footers its columnar reads share ({@link #footerCache()}). Made from
 * a {@link ColdConfig}; starts no threads. Thread-safe. {@link #close()} closes the catalog
 * MeterStore built (never a {@link CatalogKind#CUSTOM} one, which the caller owns).
 */
public final class ColdStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ColdStore.class);

  private final ColdConfig config;
  private final Catalog catalog;
  private final boolean ownsCatalog;
  private final CommitCounter counter;
  private final StoreProbe probe;
  private final FooterCache footers;

  /** Renders the resolved views' SQL; null while this store publishes none. */
  private volatile ResolvedViewSql viewSql;

  /** The files of the snapshots queries planned, shared by every table of this store. */
  private final PlannedFiles plannedFiles;

  private ColdStore(ColdConfig config, Catalog catalog, boolean ownsCatalog, OpenTelemetry otel) {
    this.probe = ownsCatalog ? CatalogFactory.probe(config) : new StoreProbe();
    this.config = config;
    this.catalog = catalog;
    this.ownsCatalog = ownsCatalog;
    this.counter = new CommitCounter(otel);
    this.footers = new FooterCache(Math.max(0, config.footerCacheBytes()));
    this.plannedFiles = new PlannedFiles(Math.max(0, config.plannedFilesCacheBytes()));
  }

  /** Opens the cold tier without metrics. */
  public static ColdStore open(ColdConfig config) {
    return open(config, OpenTelemetry.noop());
  }

  /**
   * Opens the cold tier: builds (or takes) the catalog and creates the namespace when absent.
   *
   * @param otel where metrics go; {@link OpenTelemetry#noop()} records nothing
   * @throws MeterStoreException {@code STORAGE} when the catalog cannot be reached
   */
  public static ColdStore open(ColdConfig config, OpenTelemetry otel) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(otel, "otel");
    boolean owns = config.kind() != CatalogKind.CUSTOM;
    Catalog catalog = owns ? CatalogFactory.build(config) : config.customCatalog();
    ColdStore store = new ColdStore(config, catalog, owns, otel);
    store.ensureNamespace();
    return store;
  }

  /**
   * Publishes each table's resolved view ({@code <table>_current}) with the SQL {@code sql}
   * renders, after every commit from now on and whenever maintenance asks ({@link
   * ColdTable#resolvedView()}). The deployment calls this once, before its tables are used; a store
   * used without it publishes no views. Catalogs that keep no views (not an Iceberg {@link
   * ViewCatalog}) publish none either.
   */
  public void publishViews(ResolvedViewSql sql) {
    this.viewSql = Objects.requireNonNull(sql, "sql");
  }

  /** The configuration this store was opened with. */
  public ColdConfig config() {
    return config;
  }

  /** The Iceberg catalog (for the query layer and operators' tools). */
  public Catalog catalog() {
    return catalog;
  }

  /**
   * The parsed Parquet footers and page indexes this store's columnar reads share (bounded by
   * {@link ColdConfig#footerCacheBytes()}): every table and snapshot view of the store reads a data
   * file's metadata once while it stays cached.
   */
  public FooterCache footerCache() {
    return footers;
  }

  /**
   * The estimated heap bytes of the planned snapshots' files this store keeps, shared by every
   * table of the store and bounded by {@link ColdConfig#plannedFilesCacheBytes()}.
   */
  public long plannedFilesBytes() {
    return plannedFiles.estimatedBytes();
  }

  /** The Iceberg identifier of {@code tableName}'s cold table. */
  public TableIdentifier identifier(String tableName) {
    return TableIdentifier.of(Namespace.of(config.namespace()), tableName);
  }

  /**
   * The cold table of {@code definition}, which must exist: reading or maintaining a table never
   * creates it, so a purged table stays purged. The table is checked: when its schema is
   * compatible, a partition spec, sort order or format version other than the configured layout is
   * refused; a table with schema drift opens (so its W stays readable) and refuses writes with
   * {@code QUARANTINED}. Makes sure Iceberg's own commit retry is off ({@code
   * commit.retry.num-retries=0}).
   *
   * @throws MeterStoreException {@code CONFIG} when the table does not exist (purged, or never
   *     created: the message says what to do) or names each layout difference; {@code STORAGE} when
   *     the catalog fails
   */
  public ColdTable table(TableDefinition definition) {
    TableIdentifier id = identifier(definition.name());
    if (!exists(id)) {
      throw MeterStoreException.tableMissing(
          definition.name(), "the cold tier (Iceberg table " + id + ")");
    }
    return open(definition, id);
  }

  /**
   * The cold table of {@code definition}, created when absent (never dropped or re-created), then
   * opened and checked as {@link #table} does. Only table creation calls this.
   *
   * @throws MeterStoreException {@code CONFIG} naming the table and each layout difference; {@code
   *     STORAGE} when the catalog fails
   */
  public ColdTable createTable(TableDefinition definition) {
    TableIdentifier id = identifier(definition.name());
    if (!exists(id)) {
      create(definition, id);
    }
    return open(definition, id);
  }

  /**
   * Whether {@code tableName}'s cold table exists: false before table creation and after a purge.
   *
   * @throws MeterStoreException {@code STORAGE} when the catalog fails
   */
  public boolean tableExists(String tableName) {
    return exists(identifier(tableName));
  }

  private ColdTable open(TableDefinition definition, TableIdentifier id) {
    TableAccess access = new TableAccess(catalog, id, definition.name(), probe);
    Table table = CommitSupport.withoutLibraryRetry(access, access.load());
    DriftReport drift =
        SchemaDrift.compare(definition.name(), definition.columns(), table.schema());
    if (drift.isCompatible()) {
      TableLayout.verify(definition, table, formatVersion(table));
    } else {
      LOG.warn("Cold table {} is quarantined: {}", definition.name(), drift.reasons());
    }
    ResolvedView view = ResolvedView.NONE;
    ResolvedViewSql sql = viewSql;
    if (sql != null && catalog instanceof ViewCatalog views) {
      ViewPublisher publisher =
          new ViewPublisher(views, access, definition, sql, CatalogFactory.CATALOG_NAME);
      access.afterCommit(publisher::publish);
      view = publisher;
    }
    return new IcebergColdTable(
        access, definition, settings(), counter, plannedFiles, footers, view);
  }

  private WriteSettings settings() {
    return WriteSettings.of(config);
  }

  private boolean exists(TableIdentifier id) {
    probe.check(id, id.name()); // the catalog's existence check reads metadata too
    try {
      return catalog.tableExists(id);
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot look up cold table " + id + ": " + e, e);
    }
  }

  private void create(TableDefinition definition, TableIdentifier id) {
    org.apache.iceberg.Schema schema = TableLayout.schema(definition);
    try {
      catalog
          .buildTable(id, schema)
          .withPartitionSpec(TableLayout.spec(definition, schema))
          .withSortOrder(TableLayout.sortOrder(schema))
          .withProperties(TableLayout.properties(definition, config.targetFileSizeBytes()))
          .create();
      LOG.info("Created cold table {} as {}", definition.name(), id);
    } catch (AlreadyExistsException e) {
      LOG.info("Cold table {} was created concurrently; using it", definition.name());
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot create cold table " + definition.name() + ": " + e, e);
    }
  }

  private static int formatVersion(Table table) {
    return table instanceof HasTableOperations
        ? ((HasTableOperations) table).operations().current().formatVersion()
        : 2;
  }

  private void ensureNamespace() {
    if (!(catalog instanceof SupportsNamespaces)) {
      return;
    }
    SupportsNamespaces namespaces = (SupportsNamespaces) catalog;
    Namespace ns = Namespace.of(config.namespace());
    try {
      if (!namespaces.namespaceExists(ns)) {
        namespaces.createNamespace(ns);
      }
    } catch (AlreadyExistsException e) {
      // created concurrently
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot create cold namespace " + ns + ": " + e, e);
    }
  }

  /**
   * Drops {@code tableName}'s cold table from the catalog and deletes its data, manifest and
   * metadata files (Iceberg's drop with purge), and drops its resolved view first. Readers holding
   * the table's old snapshots fail from then on. Idempotent.
   *
   * @return whether the catalog had the table
   * @throws MeterStoreException {@code STORAGE} when the catalog or the file store fails (run it
   *     again)
   */
  public boolean purgeTable(String tableName) {
    TableIdentifier id = identifier(tableName);
    try {
      // the resolved view names the table: it goes first, so no view outlives its table
      TableIdentifier view = identifier(tableName + ResolvedView.SUFFIX);
      if (catalog instanceof ViewCatalog views && viewExists(views, view)) {
        String location = views.loadView(view).location();
        views.dropView(view);
        // a catalog's drop keeps a view's metadata files: they go through the table's FileIO
        if (location != null
            && catalog.tableExists(id)
            && catalog.loadTable(id).io() instanceof SupportsPrefixOperations files) {
          files.deletePrefix(location.endsWith("/") ? location : location + "/");
        }
        LOG.warn("Dropped view {} of purged table {} with its metadata files", view, tableName);
      }
      if (!catalog.tableExists(id)) {
        return false;
      }
      boolean dropped = catalog.dropTable(id, true);
      LOG.warn("Purged cold table {} ({}): data and metadata files deleted", tableName, id);
      return dropped;
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot purge cold table " + tableName + ": " + e, e);
    }
  }

  /** Whether {@code id} is a view; false for a catalog (a REST server) that keeps no views. */
  private static boolean viewExists(ViewCatalog views, TableIdentifier id) {
    try {
      return views.viewExists(id);
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  /** Closes the catalog MeterStore built; a caller's catalog stays open. */
  @Override
  public void close() {
    probe.close();
    if (ownsCatalog && catalog instanceof Closeable) {
      try {
        ((Closeable) catalog).close();
      } catch (IOException e) {
        LOG.warn("Cannot close the cold catalog: {}", e.toString());
      }
    }
  }
}
