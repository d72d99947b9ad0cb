package org.meterstore.hot;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.OpenTelemetry;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Redaction;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.archive.ArchivalSource;
import org.meterstore.hot.internal.archive.SqlArchivalSource;
import org.meterstore.hot.internal.partition.PartitionManager;
import org.meterstore.hot.internal.pin.SqlReaderPins;
import org.meterstore.hot.internal.schema.SchemaInstaller;
import org.meterstore.hot.internal.schema.TablePurger;
import org.meterstore.hot.internal.sql.Database;
import org.meterstore.hot.internal.sql.SqlErrors;
import org.meterstore.hot.internal.subject.SubjectRegistry;
import org.meterstore.hot.internal.write.BatchWriter;
import org.meterstore.hot.internal.write.WriteMetrics;
import org.meterstore.hot.partition.Partitions;
import org.meterstore.hot.pin.ReaderPins;
import org.meterstore.hot.subject.Subjects;

/**
 * The hot tier in one PostgreSQL database: MeterStore's schema, the declared tables' partitions,
 * the batch writer (DESIGN § 4) and the deployment-wide subject registry (DESIGN § 9).
 *
 * <p>Open it from a {@link HotConfig} (it then owns a HikariCP pool and closes it) or from a {@link
 * DataSource} the application owns (closing the store leaves that alone). MeterStore starts no
 * thread of its own (HikariCP's pool keeps its housekeeping thread while open). Every method is
 * thread-safe and takes the caller's {@code now} where time matters; instants are UTC. Every
 * failure is a {@link MeterStoreException}; {@link MeterStoreException#isRetryable()} says whether
 * the same call can succeed later. Metrics go to the {@link OpenTelemetry} instance given at open
 * ({@link OpenTelemetry#noop()} when there is none).
 */
public final class HotStore implements AutoCloseable {
  private final HikariDataSource ownedPool;
  private final Database db;
  private final PartitionManager partitions;
  private final BatchWriter writer;
  private final ReaderPins pins;
  private final SubjectRegistry subjects;
  private final ArchivalSource archival;

  private HotStore(
      DataSource dataSource,
      HikariDataSource ownedPool,
      HotSettings settings,
      OpenTelemetry openTelemetry) {
    this.ownedPool = ownedPool;
    this.db = new Database(dataSource, settings.schema(), settings.ddlLockTimeout());
    this.pins = new SqlReaderPins(db);
    this.archival = new SqlArchivalSource(db);
    this.partitions = new PartitionManager(db);
    this.writer = new BatchWriter(db, partitions, new WriteMetrics(openTelemetry));
    this.subjects = new SubjectRegistry(db, settings.erasureKeys(), openTelemetry);
  }

  /**
   * Opens a store with its own connection pool. Connects once to fail fast.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable) when the database cannot be reached,
   *     {@code CONFIG} when it refuses the credentials
   */
  public static HotStore open(HotConfig config, OpenTelemetry openTelemetry) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(openTelemetry, "openTelemetry; use OpenTelemetry.noop()");
    HikariConfig hikari = new HikariConfig();
    hikari.setJdbcUrl(config.jdbcUrl());
    hikari.setUsername(config.user());
    hikari.setPassword(config.password());
    hikari.setMaximumPoolSize(config.poolSize());
    hikari.setPoolName("meterstore-hot");
    // the writer's locks order concurrent writers only under READ COMMITTED, whatever the
    // server's default_transaction_isolation
    hikari.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    try {
      HikariDataSource pool = new HikariDataSource(hikari);
      return new HotStore(pool, pool, config.settings(), openTelemetry);
    } catch (RuntimeException e) {
      throw unreachable(config, e);
    }
  }

  /**
   * Opens a store on a data source the caller owns and closes. Does not connect until used. Its
   * connections must run transactions at {@code READ COMMITTED} (PostgreSQL's default): a write on
   * a connection at another isolation level is refused with {@code CONFIG}.
   *
   * @param settings schema and {@code ddl_lock_timeout}
   */
  public static HotStore open(
      DataSource dataSource, HotSettings settings, OpenTelemetry openTelemetry) {
    Objects.requireNonNull(dataSource, "dataSource");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(openTelemetry, "openTelemetry; use OpenTelemetry.noop()");
    return new HotStore(dataSource, null, settings, openTelemetry);
  }

  /**
   * Brings MeterStore's schema up to date (versioned migrations, {@code btree_gist}) and creates
   * the parent of every table in {@code tables} that does not exist yet, registering it with {@code
   * now} as its creation instant. Idempotent; concurrent callers serialise. Creates no partition:
   * see {@link Partitions#ensureHeadroom}.
   *
   * @throws MeterStoreException {@code CONFIG} when a table exists with another time model or
   *     archival step, or the role may not create the schema or {@code btree_gist} (the message
   *     says what to ask a DBA for); each table is created in its own transaction, so tables
   *     created before a failure stay
   */
  public void createTables(List<TableDefinition> tables, Instant now) {
    Objects.requireNonNull(tables, "tables");
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
    new SchemaInstaller(db).install(List.copyOf(tables), now);
  }

  /** The reader pins that keep archived partitions a query still reads from being dropped. */
  public ReaderPins pins() {
    return pins;
  }

  /** The archival lease, partition rows and digests that the archival cycle reads. */
  public ArchivalSource archival() {
    return archival;
  }

  /** The partition lifecycle of this store's tables, for headroom and archival. */
  public Partitions partitions() {
    return partitions;
  }

  /**
   * The deployment-wide subject registry in this store's schema: registration, erasure, legal
   * holds, the retention sweep and the erasure trail (DESIGN § 9). Its tables are created by {@link
   * #createTables} (an empty list will do); the suppression list uses {@link
   * HotSettings#erasureKeys()}. A store opened as a role granted only the registry's tables can run
   * the sweep.
   */
  public Subjects subjects() {
    return subjects;
  }

  /**
   * Writes a batch of readings to {@code table} as one transaction; see {@link
   * #write(TableDefinition, List, Instant, Instant)}, without a floor.
   */
  public WriteResult write(TableDefinition table, List<Reading> batch, Instant now) {
    return writer.write(table, batch, now, null);
  }

  /**
   * Writes a batch of readings to {@code table} as one transaction and reports one outcome per
   * reading, in batch order: {@code INSERTED}, {@code SUPERSEDED}, {@code SHADOWED} or {@code
   * DUPLICATE} (a redelivery, which stores nothing). Readings are judged in batch order, so a batch
   * may carry several versions of one reading. The partitions the batch needs are created first
   * (each in its own short transaction, which stays even when the batch is then refused).
   * Concurrent writes of one market location to one table run one after the other (a batch of more
   * than 128 market locations, or with a span crossing a partition bound, runs alone in its table),
   * so a second network operator is refused whichever write comes first. Rows written into the hot
   * tables other than through a store are not held to that rule.
   *
   * @param table a table created by {@link #createTables}
   * @param batch the readings; any size, none null
   * @param now the write instant: {@code recorded_at} of every stored row and the arrival version
   *     of readings without one
   * @param floor the hot tier's watermark as the caller read it: readings with {@code from < floor}
   *     are refused; null for none. The table's recorded floor ({@link Partitions#recordFloor})
   *     applies either way, read inside the write's transaction.
   * @return the outcomes; nothing was written when this throws
   * @throws org.meterstore.hot.write.BelowFloorException ({@code INVALID_INPUT}, not retryable)
   *     when a reading starts below {@code floor} or the table's recorded floor, or lies in a
   *     window whose partition is detached: the readings are archived history, late corrections for
   *     the cold tier; a batch refused below a floor had no partition created for it
   * @throws MeterStoreException {@code INVALID_INPUT} when a reading breaks a rule of the api or
   *     the table, or names a subject reference the registry does not back ({@code
   *     subject_is_registered}) or one of another collection year than its balancing year ({@code
   *     subject_year_matches_reading}); {@code INTEGRITY_VIOLATION} for a value restated under an
   *     existing version, overlapping spans ({@code spans_do_not_overlap}) or a second operator
   *     ({@code one_operator_per_reading}), naming the table, the reading and the rule; {@code
   *     LOCK_TIMEOUT} when a needed partition could not be attached in time; {@code STORAGE} when
   *     the database fails. A refused batch leaves no row behind.
   */
  public WriteResult write(TableDefinition table, List<Reading> batch, Instant now, Instant floor) {
    return writer.write(table, batch, now, floor);
  }

  /**
   * The data source this store works through: its own pool when opened from a {@link HotConfig},
   * else the caller's. For read-only work on the same database (the query layer); the store's
   * transactions never share a connection with it.
   */
  public DataSource dataSource() {
    return db.dataSource();
  }

  /**
   * Destroys table {@code name} in this database: its partitioned parent with every attached
   * partition, every detached partition of it that archival has not reclaimed, and its registry row
   * with the leases and reader pins that hang off it. One transaction under {@code
   * ddl_lock_timeout}: it drops everything or nothing. The caller (the deployment's {@code
   * purgeTable}) confirms the name and drops the cold table.
   *
   * @return the relations dropped, the parent first; empty when the table did not exist
   * @throws MeterStoreException {@code LOCK_TIMEOUT} when a reader or writer holds a lock the drop
   *     needs, or archival holds the table's lease (nothing dropped); {@code STORAGE} when the
   *     database fails
   */
  public List<String> purgeTable(String name) {
    if (name == null || !name.matches("[a-z][a-z0-9_]{0,33}")) {
      throw MeterStoreException.invalid("table name", name, "a declared table's name");
    }
    return new TablePurger(db).purge(name);
  }

  /** The schema this store works in. */
  public String schema() {
    return db.schema();
  }

  /** Closes the pool this store opened; a data source given to it stays open. Idempotent. */
  @Override
  public void close() {
    if (ownedPool != null) {
      ownedPool.close();
    }
  }

  private static RuntimeException unreachable(HotConfig config, RuntimeException e) {
    Throwable cause = e.getCause();
    // the URL with its secrets masked and the user, never the record: no password, no settings
    String where =
        "open the hot store at "
            + config.shownUrl()
            + (config.user() == null ? "" : " as user " + config.user());
    MeterStoreException failure =
        cause instanceof SQLException sql
            ? SqlErrors.translate(where, sql)
            : new MeterStoreException(
                ErrorKind.STORAGE, "Cannot " + where + ": " + e.getMessage(), e);
    // the driver's causes quote the URL or its host part, user info included
    Set<String> secrets = new HashSet<>(Redaction.secretsOf(config.jdbcUrl()));
    if (config.password() != null) {
      secrets.add(config.password());
    }
    return Redaction.scrub(failure, secrets);
  }
}
