package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.internal.embedded.EmbeddedServer;
import org.meterstore.internal.imports.HistoryImport;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.TieredAppend;
import org.meterstore.maintenance.Maintenance;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.WallClock;
import org.meterstore.query.QueryEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running deployment: its tables over one hot store and one cold store, with everything a user
 * or an operator does to it — create the tables, write, query over JDBC, maintain (DESIGN § 6),
 * re-assert a watermark, pin settlements with tags, purge a table.
 *
 * <p>Made by {@link MeterStores#open} from a configuration (the catalog then owns what it opened —
 * embedded PostgreSQL, the hot pool, the cold catalog — and {@link #close()} closes them), or by
 * {@link #of} over stores the caller owns (closing the catalog then leaves them open).
 *
 * <p>The catalog starts nothing: no thread exists before {@link MaintenanceBuilder#spawn()}.
 * Thread-safe. Every time-dependent call takes the caller's {@code now} (UTC); only the reader pins
 * of JDBC statements read the catalog's clock.
 */
public final class MeterCatalog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MeterCatalog.class);

  private final HotStore hot;
  private final ColdStore cold;
  private final List<TableDefinition> tables;
  private final Maintenance maintenance;
  private final OpenTelemetry otel;
  private final InstantSource clock;
  private final List<AutoCloseable> owned;
  private final DetachMode detachMode;
  private final Map<String, ColdTable> coldTables = new ConcurrentHashMap<>();
  private volatile TieredAppend appender;
  private QueryEngine query;
  private boolean closed;

  private MeterCatalog(
      HotStore hot,
      ColdStore cold,
      List<TableDefinition> tables,
      OpenTelemetry otel,
      InstantSource clock,
      List<AutoCloseable> owned,
      DetachMode detachMode) {
    this.hot = hot;
    this.cold = cold;
    this.tables = tables;
    this.otel = otel;
    this.maintenance = Maintenance.of(hot, cold, tables, otel);
    this.clock = clock;
    this.owned = List.copyOf(owned);
    this.detachMode = detachMode;
    this.appender = new TieredAppend(hot, t -> coldTable(t.name()), otel, AppendHook.NONE);
  }

  /** Test seam: {@code hook} runs at each {@code AppendPoint} of {@link #append}. */
  void appendHook(AppendHook hook) {
    this.appender = new TieredAppend(hot, t -> coldTable(t.name()), otel, hook);
  }

  /**
   * A catalog of {@code tables} over stores the caller owns. Creates nothing: call {@link
   * #createTables} (idempotent) before writing or querying.
   *
   * @param tables visited in this order by every cycle; names unique, at least one
   * @param otel where the archival, tiering and query metrics go; {@link OpenTelemetry#noop()} for
   *     none
   * @throws MeterStoreException {@code INVALID_INPUT} for no tables or a repeated name
   */
  public static MeterCatalog of(
      HotStore hot, ColdStore cold, List<TableDefinition> tables, OpenTelemetry otel) {
    return of(hot, cold, tables, otel, WallClock.INSTANCE);
  }

  /**
   * {@link #of(HotStore, ColdStore, List, OpenTelemetry)} with the clock that JDBC statements'
   * reader pins read (tests pass a fixed one; the default is the wall clock).
   */
  public static MeterCatalog of(
      HotStore hot,
      ColdStore cold,
      List<TableDefinition> tables,
      OpenTelemetry otel,
      InstantSource clock) {
    return create(hot, cold, tables, otel, clock, List.of(), DetachMode.CONCURRENTLY);
  }

  static MeterCatalog create(
      HotStore hot,
      ColdStore cold,
      List<TableDefinition> tables,
      OpenTelemetry otel,
      InstantSource clock,
      List<AutoCloseable> owned,
      DetachMode detachMode) {
    Objects.requireNonNull(hot, "hot");
    Objects.requireNonNull(detachMode, "detachMode");
    Objects.requireNonNull(cold, "cold");
    Objects.requireNonNull(otel, "otel; use OpenTelemetry.noop()");
    Objects.requireNonNull(clock, "clock");
    List<TableDefinition> copy = List.copyOf(tables);
    Set<String> names = new HashSet<>();
    if (copy.isEmpty()) {
      throw MeterStoreException.invalid("tables", "[]", "at least one table");
    }
    for (TableDefinition t : copy) {
      if (!names.add(t.name())) {
        throw MeterStoreException.invalid("tables", t.name(), "each table name once");
      }
    }
    return new MeterCatalog(hot, cold, copy, otel, clock, owned, detachMode);
  }

  /**
   * The embedded default's PostgreSQL as another process reaches it, while this catalog has it
   * open; empty when the hot tier is a configured {@code [hot] url} or the catalog was made by
   * {@link #of}.
   */
  public Optional<EmbeddedDatabase> embeddedDatabase() {
    for (AutoCloseable c : owned) {
      if (c instanceof EmbeddedServer s) {
        return Optional.of(
            new EmbeddedDatabase(s.jdbcUrl(), EmbeddedServer.USER, s.passwordFile()));
      }
    }
    return Optional.empty();
  }

  /** The tables, in the order a cycle visits them. */
  public List<TableDefinition> tables() {
    return tables;
  }

  /** The declared table called {@code name}, if any. */
  public Optional<TableDefinition> table(String name) {
    return tables.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /** The hot tier. */
  public HotStore hot() {
    return hot;
  }

  /** The cold tier. */
  public ColdStore cold() {
    return cold;
  }

  /**
   * The cold table of declared table {@code name}: snapshots, tags, W (the CLI's {@code
   * snapshots}).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared
   */
  public ColdTable coldTable(String name) {
    TableDefinition definition = require(name);
    return coldTables.computeIfAbsent(name, n -> cold.table(definition));
  }

  /**
   * The tiers in which declared table {@code name} does not exist: both before {@link
   * #createTables}, both after {@link #purgeTable}, one after a purge interrupted between its
   * steps. Reading, writing or maintaining a table never creates it; those calls refuse a missing
   * table with {@code CONFIG}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared; {@code
   *     STORAGE} when a tier cannot be reached
   */
  public Set<Tier> missingTiers(String name) {
    TableDefinition definition = require(name);
    Set<Tier> missing = EnumSet.noneOf(Tier.class);
    if (!hot.partitions().tableExists(definition)) {
      missing.add(Tier.HOT);
    }
    if (!cold.tableExists(name)) {
      missing.add(Tier.COLD);
    }
    return missing;
  }

  /**
   * Creates every table in both tiers where it does not exist yet (the hot schema and parents, the
   * cold Iceberg tables) and pre-creates the hot partitions of {@code partition_headroom}.
   * Idempotent; an existing table is checked against its definition.
   *
   * @param now the creation instant recorded in the hot registry and the headroom's start (UTC)
   * @throws MeterStoreException {@code CONFIG} when a stored table disagrees with its definition;
   *     {@code STORAGE} when a tier cannot be reached; tables created before a failure stay
   */
  public void createTables(Instant now) {
    requireNow(now);
    hot.createTables(tables, now);
    for (TableDefinition t : tables) {
      coldTables.computeIfAbsent(t.name(), n -> cold.createTable(t));
      hot.partitions().ensureHeadroom(t, now);
    }
  }

  /**
   * Writes a batch to table {@code table}, each reading to the tier its {@code from} belongs to
   * (DESIGN § 4): at or above the watermark W to PostgreSQL, below it (a <em>late correction</em>)
   * to Iceberg as a correction append, without moving W. After writing, W is read again; if
   * archival moved it meanwhile, the readings that now lie below it are appended to the cold tier
   * too (both writes are idempotent), so no reading is ever left in PostgreSQL below W.
   *
   * <p>Outcomes per reading, in batch order: {@code INSERTED}, {@code SUPERSEDED}, {@code SHADOWED}
   * or {@code DUPLICATE} (a redelivery, nothing stored), with the tier that holds it.
   *
   * <p>A batch that breaks a rule checkable without writing — bad input, a value restated under a
   * stored version, a second network operator, overlapping spans, against what either tier holds —
   * is refused before either tier is written. A failure after a part landed (storage, or archival
   * racing the write) names the readings that landed; the same batch, retried, completes and
   * reports them {@code DUPLICATE}. Readings without an operator version get the arrival version of
   * {@code now}, so retry those with the same {@code now}.
   *
   * @param now the write instant: {@code recorded_at} of every stored row, UTC
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared or a reading
   *     breaks a rule of the api or the table; {@code INTEGRITY_VIOLATION} naming the reading and
   *     the rule; {@code LOCK_TIMEOUT} (retryable) when a partition could not be attached in time
   *     or a window of the batch is being archived; {@code STORAGE} (retryable) when a tier fails
   */
  public WriteResult append(String table, List<Reading> batch, Instant now) {
    return appender.append(require(table), batch, requireNow(now));
  }

  /**
   * {@link #importHistory(String, ImportSource, Instant, ImportOptions)} with {@link
   * ImportOptions#DEFAULTS}.
   */
  public ImportResult importHistory(String table, ImportSource source, Instant now) {
    return importHistory(table, source, now, ImportOptions.DEFAULTS);
  }

  /**
   * Imports settled history from {@code source} straight into {@code table}'s cold tier ({@code
   * docs/import.md}). The source is read twice: first every record is validated with the api's
   * builders and the table's rules and the import's range is learned — the partition windows from
   * its earliest to its latest {@code from}; then, holding the table's archival lease, it is
   * written in chunks of about {@code options.chunkRows()} readings, each committed on its own:
   * readings below W as late corrections (the checks of {@link #append}'s cold part: one operator,
   * no restated value, no overlap; repeats reported {@code DUPLICATE}; W unchanged), readings at or
   * above W as one window {@code [W, E)} like an archival commit (the same checks, then W moves to
   * E, the end of the window of the chunk's latest {@code from}, with the hot floor raised to E
   * first). W never moves back and no hot row is ever below it.
   *
   * <p>Re-running an import is safe: what an earlier run committed lies below W and is reported
   * {@code DUPLICATE}. A run that failed or was killed between chunks leaves the chunks committed
   * before; the re-run completes it. Readings without {@code recorded_at} get {@code now}, and
   * readings without an operator version the arrival version of their {@code recorded_at}: re-run
   * those with the same {@code now}.
   *
   * @param now the import's instant (UTC): the range must end at or before {@code now -
   *     settlement_lag}; stamped as {@code meterstore.archived-at}
   * @throws MeterStoreException {@code INVALID_INPUT} for a bad record (naming the CSV line or
   *     Parquet row), a range that is not settled, or one that overlaps hot rows (nothing written);
   *     {@code INTEGRITY_VIOLATION} when a reading restates a stored version or names a second
   *     operator or overlaps a stored span (the chunks before stay committed); {@code LOCK_TIMEOUT}
   *     (retryable) when another process holds the archival lease or the floor could not be raised
   *     in time; {@code STORAGE} (retryable) when a tier fails
   */
  public ImportResult importHistory(
      String table, ImportSource source, Instant now, ImportOptions options) {
    TableDefinition definition = require(table);
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(options, "options");
    return new HistoryImport(hot, coldTable(table), definition, source, requireNow(now), options)
        .run();
  }

  /**
   * A writer for steady ingest into {@code table}'s hot tier: it reads W once, now, and refuses
   * readings below it with {@code INVALID_INPUT} naming {@link #append}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared; {@code
   *     STORAGE} when the cold tier cannot say what W is
   */
  public HotWriter hotWriter(String table) {
    TableDefinition definition = require(table);
    return new HotWriter(hot, definition, coldTable(table).watermark());
  }

  /** A read-only JDBC connection in the current read mode (see {@code docs/querying.md}). */
  public Connection connection() throws SQLException {
    return query().connection();
  }

  /**
   * A read-only JDBC connection; {@code info}'s {@code meterstore.*} properties choose the read
   * mode, and {@code meterstore.system_at=<instant>} computes the connection's {@code system.*}
   * relations as it opens ({@link QueryEngine#connection(Properties)}). The caller closes it.
   */
  public Connection connection(Properties info) throws SQLException {
    return query().connection(info);
  }

  /**
   * Recomputes the {@code system.*} relations at {@code now} (one round trip to each tier per
   * table); see {@link QueryEngine#refreshSystemTables}.
   */
  public void refreshSystemTables(Instant now) {
    query().refreshSystemTables(requireNow(now));
  }

  /**
   * The SQL engine over this catalog's tables, built on first use (the tables must exist in both
   * tiers by then: {@link #createTables}).
   */
  public synchronized QueryEngine query() {
    if (closed) {
      throw new MeterStoreException(
          org.meterstore.api.ErrorKind.INVALID_INPUT, "Cannot query: the catalog is closed");
    }
    if (query == null) {
      query =
          QueryEngine.builder()
              .tables(tables)
              .hot(hot, hot.dataSource())
              .cold(cold)
              .clock(clock)
              .openTelemetry(otel)
              .schemaName(hot.schema())
              .build();
    }
    return query;
  }

  /**
   * A new builder for this catalog's maintenance loop, with the defaults listed there; its detach
   * mode is the configuration's {@code [hot] detach_mode} when the catalog was opened from one,
   * else {@link DetachMode#CONCURRENTLY} (set {@link DetachMode#PLAIN} on the builder for plain).
   * Compaction of the small cold files of closed months is on unless turned off with {@link
   * MaintenanceBuilder#compact}.
   */
  public MaintenanceBuilder maintenance() {
    return maintenance.builder().detachMode(detachMode);
  }

  /**
   * Runs one maintenance cycle at {@code now} archiving at most {@code maxWindows} windows per
   * table (snapshot expiry, compaction and the retention sweep off): the CLI's {@code archive}.
   */
  public MaintenanceOutcome archive(Instant now, int maxWindows) {
    return maintenance().maxWindowsPerCycle(maxWindows).compact(false).runOnce(requireNow(now));
  }

  /**
   * Re-stamps W onto the current cold snapshot of {@code table} when it carries none (after foreign
   * maintenance); never moves W. See {@link org.meterstore.cold.table.ColdTable#reassertWatermark}.
   *
   * @return whether a re-stamp commit was made
   */
  public boolean reassertWatermark(String table, Instant now) {
    requireNow(now);
    return coldTable(table).reassertWatermark(now);
  }

  /**
   * Pins the current cold snapshot of {@code table} under tag {@code name} (a settlement pin,
   * DESIGN § 5): queries in the {@code as_of_tag} read mode read exactly that snapshot, and
   * MeterStore's snapshot expiry keeps it until it is untagged. Changes only the Iceberg table's
   * refs; W and the data are untouched.
   *
   * @param name 1 to 100 letters, digits, {@code .}, {@code _} or {@code -}, e.g. {@code
   *     settlement-2026-10}
   * @return the new tag with its snapshot, W and MeterStore stamp
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared, the name
   *     breaks the rule, the tag exists (untag it first to move it) or the table has no snapshot;
   *     nothing is changed
   */
  public SnapshotTag tag(String table, String name) {
    coldTable(table).tagSnapshot(name);
    return tagNamed(table, name);
  }

  /**
   * {@link #tag(String, String)} for snapshot {@code snapshotId} (see {@code system.snapshots}).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} also when the snapshot does not exist
   *     (expired or never committed)
   */
  public SnapshotTag tag(String table, String name, long snapshotId) {
    coldTable(table).tagSnapshot(name, snapshotId);
    return tagNamed(table, name);
  }

  /**
   * Removes tag {@code name} of {@code table}; its snapshot is then expired like any other.
   *
   * @return the id of the snapshot it tagged
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared or it has no
   *     such tag (nothing changed)
   */
  public long untag(String table, String name) {
    return coldTable(table).untagSnapshot(name);
  }

  /** The tags of {@code table}, sorted by name (also {@code system.tags}). */
  public List<SnapshotTag> tags(String table) {
    return coldTable(table).tags();
  }

  private SnapshotTag tagNamed(String table, String name) {
    return tags(table).stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new MeterStoreException(
                    org.meterstore.api.ErrorKind.STORAGE,
                    "Cannot read tag "
                        + name
                        + " of table "
                        + table
                        + " back: it was committed, then removed by another process"));
  }

  /**
   * Destroys table {@code name} in both tiers: the PostgreSQL parent with every partition (attached
   * or detached leftovers), MeterStore's bookkeeping rows for it (registry, leases, pins), and the
   * Iceberg table with its data and metadata files. The only operation that deletes readings;
   * logged at WARN.
   *
   * @param confirmName must equal {@code name}, or nothing is touched
   * @return what was removed
   * @throws MeterStoreException {@code INVALID_INPUT} when the names differ or the table is not
   *     declared (nothing touched); {@code LOCK_TIMEOUT} when archival holds the table or a reader
   *     blocks the drop (nothing touched in the hot tier; run it again); {@code STORAGE} when a
   *     tier fails (run it again: a purge is idempotent)
   */
  public PurgeResult purgeTable(String name, String confirmName) {
    try {
      return new TablePurge(this).purge(name, confirmName);
    } finally {
      coldTables.remove(name);
    }
  }

  /**
   * Closes what {@link MeterStores#open} opened for this catalog, in reverse order (cold catalog,
   * hot pool, embedded PostgreSQL); a catalog made by {@link #of} closes nothing of the caller's.
   * Close a spawned maintenance handle first. Idempotent.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (query != null) {
      query.close();
    }
    List<AutoCloseable> reversed = new ArrayList<>(owned);
    java.util.Collections.reverse(reversed);
    for (AutoCloseable c : reversed) {
      try {
        c.close();
      } catch (Exception e) {
        LOG.warn("Cannot close {}: {}", c.getClass().getSimpleName(), e.toString());
      }
    }
  }

  /**
   * Orphan-file removal for this catalog's tables (files under a table's location that nothing
   * retained references): a dry run lists them, a removal deletes them. The CLI's {@code orphans}.
   */
  public OrphanFiles orphanFiles() {
    return new OrphanFiles(this);
  }

  TableDefinition require(String name) {
    return table(name)
        .orElseThrow(
            () ->
                MeterStoreException.invalid(
                    "table", name, "one of the declared tables " + names()));
  }

  private List<String> names() {
    return tables.stream().map(TableDefinition::name).toList();
  }

  private static Instant requireNow(Instant now) {
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    return now;
  }
}
