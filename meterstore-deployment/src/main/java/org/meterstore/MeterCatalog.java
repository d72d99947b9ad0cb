package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.cold.view.ResolvedView;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.subject.Subjects;
import org.meterstore.internal.embedded.EmbeddedServer;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.TieredAppend;
import org.meterstore.maintenance.Maintenance;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.WallClock;
import org.meterstore.query.QueryEngine;
import org.meterstore.query.ResolvedViews;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running deployment: its tables over one hot store and one cold store. The catalog creates the
 * tables, answers SQL over JDBC and hands out one entry point per concern, never the tier stores:
 *
 * <ul>
 *   <li>{@link #table(String)}: a {@link MeterTable}, everything done to one table — write, import,
 *       W, tags, drift and storage checks, orphan files, purge;
 *   <li>{@link #subjects()}: the subject registry — registration, erasure, holds, the erasure trail
 *       (DESIGN § 9, {@code docs/privacy.md});
 *   <li>{@link #maintenance()}: a builder of the maintenance loop (DESIGN § 6);
 *   <li>{@link #connection()} and {@link #query()}: SQL over both tiers.
 * </ul>
 *
 * <p>A new capability adds an entry point (or a method on one), not a method here. Tests and
 * out-of-band tools that need a tier store itself go through the expert door {@link Tiers}.
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

  /** Test seam: {@code hook} runs at each {@code AppendPoint} of {@link MeterTable#append}. */
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
    for (TableDefinition t : copy) {
      if (names.contains(t.name() + ResolvedView.SUFFIX)) {
        throw MeterStoreException.invalid(
            "tables",
            t.name() + ResolvedView.SUFFIX,
            "no table named after another table's resolved view (" + t.name() + "'s view)");
      }
    }
    // each table's resolved view is published in the Iceberg catalog after every commit
    cold.publishViews(new ResolvedViews(hot, cold.config().namespace()));
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

  /**
   * The entry point of declared table {@code name}: writes, imports, W, tags, checks, orphan files
   * and purge of that table. Cheap; the tiers are reached by the handle's calls, not here.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared, naming the
   *     declared ones
   */
  public MeterTable table(String name) {
    return new MeterTable(this, require(name));
  }

  /**
   * The deployment-wide subject registry (DESIGN § 9, {@code docs/privacy.md}): registration,
   * erasure, legal holds, the retention sweep and the erasure trail. Its tables are created by
   * {@link #createTables}. Thread-safe.
   */
  public Subjects subjects() {
    return hot.subjects();
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

  /** The hot store (package-private: {@link MeterTable}, {@link Tiers}). */
  HotStore hotStore() {
    return hot;
  }

  /** The cold store (package-private: {@link MeterTable}, {@link Tiers}). */
  ColdStore coldStore() {
    return cold;
  }

  /**
   * The cold table of declared table {@code name}, opened once and kept until a purge.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when no such table is declared
   */
  ColdTable coldTable(String name) {
    TableDefinition definition = require(name);
    return coldTables.computeIfAbsent(name, n -> cold.table(definition));
  }

  void forgetColdTable(String name) {
    coldTables.remove(name);
  }

  TieredAppend appender() {
    return appender;
  }

  TableDefinition require(String name) {
    return tables.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                MeterStoreException.invalid(
                    "table", name, "one of the declared tables " + names()));
  }

  private List<String> names() {
    return tables.stream().map(TableDefinition::name).toList();
  }

  static Instant requireNow(Instant now) {
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    return now;
  }
}
