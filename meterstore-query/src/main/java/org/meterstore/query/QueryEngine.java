package org.meterstore.query;

import io.opentelemetry.api.OpenTelemetry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.Lex;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.parser.SqlParser;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.ColdStore;
import org.meterstore.hot.HotStore;
import org.meterstore.query.internal.cold.ColdExecutor;
import org.meterstore.query.internal.function.MeterFunctions;
import org.meterstore.query.internal.jdbc.ConnectionHandler;
import org.meterstore.query.internal.jdbc.ReadOnlyGuard;
import org.meterstore.query.internal.plan.MeterPrepare;
import org.meterstore.query.internal.plan.MeterSchema;
import org.meterstore.query.internal.plan.MeterTypeSystem;
import org.meterstore.query.internal.plan.PlanCache;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.QueryContext;
import org.meterstore.query.internal.state.QueryMetrics;
import org.meterstore.query.internal.state.Session;
import org.meterstore.query.internal.system.SystemSchema;
import org.meterstore.query.internal.system.SystemSnapshot;
import org.meterstore.query.internal.system.SystemTablesComputer;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.query.mode.ReadMode;

/**
 * SQL over one deployment's tables: every {@link #connection()} is a read-only JDBC connection
 * (Apache Calcite underneath) whose default schema holds, for each table {@code T}, the relations
 * {@code T} (one row per reading, version-resolved over both tiers) and {@code T_versions} (every
 * stored version), plus the {@code system} schema. See {@code docs/querying.md}.
 *
 * <p>SQL is case-sensitive with double-quoted identifiers ({@code lex=JAVA}, {@code
 * quoting=DOUBLE_QUOTE}); reserved words such as {@code "from"}, {@code "to"} and {@code "value"}
 * must be quoted. Timestamps are UTC ({@code TIMESTAMP(3)}), dates Europe/Berlin balancing dates.
 *
 * <p>Thread-safe; connections are independent. The catalog owns neither store: closing it stops
 * only what it made itself, the pool cold scans run on. Time comes from the injected clock only,
 * used for reader pins.
 */
public final class QueryEngine implements AutoCloseable {
  private static final SqlParser.Config PARSER =
      SqlParser.config().withLex(Lex.JAVA).withQuoting(Quoting.DOUBLE_QUOTE);

  private final CatalogRuntime runtime;
  private final String schemaName;
  private final ReadOnlyGuard guard = new ReadOnlyGuard(PARSER);
  private final PlanCache plans;
  private final org.apache.calcite.jdbc.Driver driver;

  private QueryEngine(CatalogRuntime runtime, String schemaName, int planCacheSize) {
    this.runtime = runtime;
    this.schemaName = schemaName;
    this.plans = new PlanCache(planCacheSize);
    MeterPrepare prepare = new MeterPrepare(runtime, plans);
    this.driver = new org.apache.calcite.jdbc.Driver().withPrepareFactory(() -> prepare);
  }

  /** A builder; tables, both stores, the hot data source and the clock are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The declared tables, by name. */
  public Map<String, TableDefinition> tables() {
    return runtime.tables();
  }

  /** The name of the schema holding the tables (the connections' default schema). */
  public String schemaName() {
    return schemaName;
  }

  /** A connection in the current read mode. The caller closes it. */
  public Connection connection() throws SQLException {
    return connection(new Properties());
  }

  /**
   * A connection; {@code info}'s {@link QueryProperties} choose its read mode, other properties go
   * to Calcite. With {@link QueryProperties#SYSTEM_AT}, the connection's {@code system} relations
   * are computed as it opens (one round trip to each tier per table), lags and the partition runway
   * measured against that instant, and its statements read those; without it they read the last
   * {@link #refreshSystemTables}, or fail naming the property. The caller closes it.
   *
   * @throws SQLException when a property is invalid
   */
  public Connection connection(Properties info) throws SQLException {
    ReadMode mode;
    Optional<Instant> systemAt;
    try {
      mode = QueryProperties.readMode(info);
      systemAt = QueryProperties.systemAt(info);
    } catch (MeterStoreException e) {
      throw new SQLException(e.getMessage(), "HY024", e);
    }
    Properties calcite = new Properties();
    info.stringPropertyNames().stream()
        .filter(k -> !k.startsWith(QueryProperties.PREFIX))
        .forEach(k -> calcite.setProperty(k, info.getProperty(k)));
    calcite.setProperty("lex", "JAVA");
    calcite.setProperty("quoting", "DOUBLE_QUOTE");
    calcite.setProperty("timeZone", "UTC");
    calcite.setProperty("typeSystem", MeterTypeSystem.class.getName());
    Connection c = driver.connect("jdbc:calcite:", calcite);
    CalciteConnection cc = c.unwrap(CalciteConnection.class);
    SystemSnapshot own =
        systemAt.map(at -> SystemTablesComputer.compute(runtime, schemaName, at)).orElse(null);
    Properties inner = new Properties();
    inner.putAll(info);
    inner.remove(QueryProperties.SYSTEM_AT);
    Session session = new Session(runtime, mode, settings(calcite), own, () -> connection(inner));
    SchemaPlus root = cc.getRootSchema();
    root.add(schemaName, new MeterSchema(session, MeterFunctions.all(session)));
    root.add("system", new SystemSchema(this::systemSnapshot));
    // Calcite's own "metadata" schema would show up in every BI tool's tree next to ours.
    root.unwrap(CalciteSchema.class).removeSubSchema("metadata");
    cc.setSchema(schemaName);
    return ConnectionHandler.wrap(c, session, guard, schemaName);
  }

  /** The statement's connection's {@code system} relations, else the last refresh; or null. */
  private SystemSnapshot systemSnapshot() {
    QueryContext statement = runtime.currentOrNull();
    return (SystemSnapshot)
        (statement == null ? runtime.systemSnapshot().get() : statement.systemSnapshot());
  }

  /** The connection's Calcite properties as text, in key order: part of a cached plan's key. */
  private static String settings(Properties calcite) {
    StringBuilder b = new StringBuilder();
    new java.util.TreeSet<>(calcite.stringPropertyNames())
        .forEach(k -> b.append(k).append('=').append(calcite.getProperty(k)).append('\n'));
    return b.toString();
  }

  /** The number of plans in the plan cache (see {@link Builder#planCacheSize}). */
  public int cachedPlans() {
    return plans.size();
  }

  /**
   * Recomputes the {@code system} relations at {@code now}: one round trip to each tier per table.
   * Until the first call they are not readable (except on connections opened with {@link
   * QueryProperties#SYSTEM_AT}, which read their own); between calls they do not change. Failures
   * are reported in the rows ({@code -1}, null, {@code healthy = false}), never thrown.
   *
   * @param now the instant lags and the partition runway are measured against (UTC)
   */
  public void refreshSystemTables(Instant now) {
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    runtime.systemSnapshot().set(SystemTablesComputer.compute(runtime, schemaName, now));
  }

  /**
   * Stops the pool cold scans run on, waiting for running scans to end; no thread of the engine
   * outlives it. Connections are closed by their users and the stores by their owner.
   */
  @Override
  public void close() {
    runtime.coldExecutor().close();
  }

  /** Builds a {@link QueryEngine}. Not thread-safe. */
  public static final class Builder {
    /** The default number of cached plans. */
    public static final int DEFAULT_PLAN_CACHE_SIZE = 256;

    private List<TableDefinition> tables;
    private HotStore hot;
    private DataSource hotDataSource;
    private ColdStore cold;
    private InstantSource clock;
    private OpenTelemetry openTelemetry = OpenTelemetry.noop();
    private Duration pinTtl = Duration.ofHours(1);
    private String schemaName = "meterstore";
    private int planCacheSize = DEFAULT_PLAN_CACHE_SIZE;
    private int coldReadThreads = Runtime.getRuntime().availableProcessors();
    private long inlineColdReadBytes = ColdExecutor.DEFAULT_INLINE_READ_BYTES;

    private Builder() {}

    /** The declared tables (each must exist in both tiers). */
    public Builder tables(List<TableDefinition> definitions) {
      this.tables = List.copyOf(definitions);
      return this;
    }

    /**
     * The hot tier and a data source on the same database for reading (the store's own pool is not
     * exposed); the caller owns both.
     */
    public Builder hot(HotStore store, DataSource dataSource) {
      this.hot = store;
      this.hotDataSource = dataSource;
      return this;
    }

    /** The cold tier; the caller owns it. */
    public Builder cold(ColdStore store) {
      this.cold = store;
      return this;
    }

    /** Where reader pins take their {@code now} from (time is a parameter). */
    public Builder clock(InstantSource source) {
      this.clock = source;
      return this;
    }

    /** Where metrics go (default {@link OpenTelemetry#noop()}). */
    public Builder openTelemetry(OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    /**
     * How long a statement's reader pin keeps archival from dropping the hot partitions it read
     * (default 1 hour, positive). A statement used after its pin lapsed fails naming the window.
     */
    public Builder pinTtl(Duration ttl) {
      this.pinTtl = ttl;
      return this;
    }

    /**
     * How many plans the engine keeps (default {@value #DEFAULT_PLAN_CACHE_SIZE}; 0 plans every
     * statement). A plan is keyed by its SQL text, the connection's read mode and its Calcite
     * properties, and does not depend on W: every execution reads W, pins its snapshot and
     * partitions afresh. {@code EXPLAIN} is never cached.
     */
    public Builder planCacheSize(int size) {
      this.planCacheSize = size;
      return this;
    }

    /**
     * How many cold files the engine reads at once, over all statements (default: the available
     * processors; at least 1). The threads ({@code meterstore-query-cold-N}, daemons) are made on
     * the first cold scan and end with {@link QueryEngine#close()}.
     */
    public Builder coldReadThreads(int threads) {
      this.coldReadThreads = threads;
      return this;
    }

    /**
     * Which cold reads run on the querying thread instead of the engine's pool: a read of one
     * location ({@code malo_id} equal to or in a list of literals), of a single file unit, or of at
     * most {@code bytes} of files (default 8 MiB). Such reads would wait longer in the pool's queue
     * behind other statements' scans than they take. 0 sends every cold read to the pool.
     */
    public Builder inlineColdReadBytes(long bytes) {
      this.inlineColdReadBytes = bytes;
      return this;
    }

    /** The schema name of the tables (default {@code meterstore}); not {@code system}. */
    public Builder schemaName(String name) {
      this.schemaName = name;
      return this;
    }

    /**
     * The catalog.
     *
     * @throws MeterStoreException {@code INVALID_INPUT} naming a missing or invalid setting
     */
    public QueryEngine build() {
      require("tables", tables);
      require("hot store", hot);
      require("hot data source", hotDataSource);
      require("cold store", cold);
      require("clock", clock);
      require("openTelemetry", openTelemetry);
      if (pinTtl == null || pinTtl.isNegative() || pinTtl.isZero()) {
        throw MeterStoreException.invalid("pin ttl", pinTtl, "a positive duration");
      }
      if (schemaName == null
          || !schemaName.matches("[a-z][a-z0-9_]*")
          || "system".equals(schemaName)) {
        throw MeterStoreException.invalid(
            "schema name", schemaName, "a lowercase identifier, not system");
      }
      if (planCacheSize < 0) {
        throw MeterStoreException.invalid("plan cache size", planCacheSize, "0 or more");
      }
      if (coldReadThreads < 1) {
        throw MeterStoreException.invalid("cold read threads", coldReadThreads, "1 or more");
      }
      if (inlineColdReadBytes < 0) {
        throw MeterStoreException.invalid(
            "inline cold read bytes", inlineColdReadBytes, "0 (off) or more");
      }
      CatalogRuntime runtime =
          new CatalogRuntime(
              tables,
              hot,
              hotDataSource,
              cold,
              clock,
              pinTtl,
              new QueryMetrics(openTelemetry),
              new ColdExecutor.Settings(coldReadThreads, inlineColdReadBytes));
      return new QueryEngine(runtime, schemaName, planCacheSize);
    }

    private static void require(String field, Object value) {
      if (value == null) {
        throw MeterStoreException.invalid(field, null, "required");
      }
      Objects.requireNonNull(value);
    }
  }
}
