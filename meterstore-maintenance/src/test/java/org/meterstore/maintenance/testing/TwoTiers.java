package org.meterstore.maintenance.testing;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.maintenance.archival.ArchivalSettings;
import org.meterstore.maintenance.archival.Archiver;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * Both tiers of one test deployment: a {@link HotStore} on a test database (schema {@value
 * #SCHEMA}) and a {@link ColdStore} whose JDBC catalog lives in the same database, with its
 * warehouse in a directory. Data moves from hot to cold only through the real {@link Archiver}
 * (lease, digest re-check, hot floor, reader pins, reader grace), never by hand. Query's and the
 * deployment module's tests extend it with an engine or a catalog over the same stores.
 *
 * <p>Not thread-safe; one per test (class). {@link #close()} closes both stores, not the database.
 */
public class TwoTiers implements AutoCloseable {
  /** Retries an Iceberg commit conflict quickly: three attempts, no backoff to speak of. */
  public static final CommitPolicy FAST = new CommitPolicy(3, Duration.ZERO, Duration.ofMillis(5));

  /** The hot tier's schema. */
  public static final String SCHEMA = HotSettings.DEFAULT_SCHEMA;

  /** More windows than any test has: one run archives everything that is due. */
  private static final int ALL_DUE = 10_000;

  public final TestDatabase db;
  public final HotStore hot;
  public final ColdStore cold;
  private final Archiver archiver;

  /**
   * Opens both tiers; creates no table.
   *
   * @param ddlLockTimeout the hot tier's {@code ddl_lock_timeout}
   * @param otel where both stores record their metrics (the fixture's own archiver records none)
   */
  public TwoTiers(TestDatabase db, Path warehouse, Duration ddlLockTimeout, OpenTelemetry otel) {
    this.db = db;
    this.hot =
        HotStore.open(
            db.dataSource(),
            HotSettings.DEFAULTS.withSchema(SCHEMA).withDdlLockTimeout(ddlLockTimeout),
            otel);
    this.cold = ColdStore.open(coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse), otel);
    this.archiver = new Archiver(hot, cold, ArchivalSettings.defaults(), OpenTelemetry.noop());
  }

  /** A JDBC-catalog cold config on that database with a warehouse in {@code warehouse}. */
  public static ColdConfig coldConfig(String url, String user, String password, Path warehouse) {
    return ColdConfig.jdbc(url, user, password, warehouse.toUri().toString())
        .withCommitPolicy(FAST);
  }

  /** A daily interval table with the given settlement lag and reader grace. */
  public static TableDefinition table(String name, Duration settlementLag, Duration readerGrace) {
    return TableDefinition.interval(name)
        .withPolicy(
            TablePolicy.DEFAULTS.withSettlementLag(settlementLag).withReaderGrace(readerGrace));
  }

  /** Creates {@code tables} in both tiers. */
  public void create(List<TableDefinition> tables, Instant now) {
    hot.createTables(tables, now);
    tables.forEach(cold::createTable);
  }

  public ColdTable coldTable(TableDefinition def) {
    return cold.createTable(def);
  }

  /**
   * Archives up to {@code to} through the real archiver: one run at {@code to + settlement_lag},
   * the first instant at which the window ending at {@code to} is due, which archives every due
   * window from the watermark W (an empty gap below {@code from} goes into the same commit); then,
   * when {@code drop}, a second run one {@code reader_grace} later, which reclaims the detached
   * partitions that no reader pin keeps and archives nothing more. Requires a {@code reader_grace}
   * shorter than the archival step.
   *
   * @return the runs' outcomes, in order (one, or two when {@code drop})
   * @throws IllegalStateException when {@code [from, to)} is already archived, a run does not end
   *     as described (failed, deferred, contended), or W does not end at {@code to}
   */
  public List<TableOutcome> archive(TableDefinition def, Instant from, Instant to, boolean drop) {
    Instant w = coldTable(def).watermark();
    if (from.isBefore(w) || !to.isAfter(from)) {
      throw new IllegalStateException(
          "Cannot archive [" + from + ", " + to + ") of " + def.name() + ": W is " + w);
    }
    Instant now = to.plus(def.policy().settlementLag());
    TableOutcome archived = require(runArchiver(def, now), TableOutcome.Status.ARCHIVED, to);
    if (!drop) {
      return List.of(archived);
    }
    Instant later = now.plus(def.policy().readerGrace());
    TableOutcome reclaimed = require(runArchiver(def, later), TableOutcome.Status.NOTHING_DUE, to);
    return List.of(archived, reclaimed);
  }

  /** One real archival run of {@code def} at {@code now}, every due window. */
  public TableOutcome runArchiver(TableDefinition def, Instant now) {
    return archiver.run(def, now, ALL_DUE);
  }

  private static TableOutcome require(TableOutcome run, TableOutcome.Status status, Instant w) {
    if (run.status() != status || !run.watermark().equals(Optional.of(w))) {
      throw new IllegalStateException(
          "Expected an archival run ending " + status + " at W " + w + ", got " + run,
          run.failure().orElse(null));
    }
    return run;
  }

  /** Writes every delivery of {@code workload} to the hot tier and the model, ten at a time. */
  public void write(TableDefinition table, Workload workload, ReferenceModel model, Instant now) {
    List<Reading> batch = new ArrayList<>();
    int deliveries = 0;
    for (Workload.Delivery d : workload.deliveries()) {
      batch.addAll(d.readings());
      if (++deliveries % 10 == 0) {
        hot.write(table, batch, now);
        model.write(batch, now);
        batch = new ArrayList<>();
      }
    }
    if (!batch.isEmpty()) {
      hot.write(table, batch, now);
      model.write(batch, now);
    }
  }

  /** Rows and value sums per UTC day of {@code from} over both tiers' live rows. */
  public Map<LocalDate, Tally> tiers(TableDefinition table) throws SQLException {
    Map<LocalDate, Tally> days = new TreeMap<>();
    try (CloseableIterable<Object[]> rows = cold.createTable(table).read()) {
      rows.forEach(row -> Tally.add(days, row));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"from\", value FROM \"" + SCHEMA + "\".\"" + table.name() + "\"")) {
      while (rs.next()) {
        Tally.add(days, rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getBigDecimal(2));
      }
    }
    return days;
  }

  /** Rows in the cold table's current snapshot. */
  public long coldRows(TableDefinition table) {
    long n = 0;
    try (CloseableIterable<Object[]> rows = cold.createTable(table).read()) {
      for (Object[] ignored : rows) {
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }

  /**
   * Every row of one hot partition table (attached or detached), in the api's row format — for a
   * test that builds a state the archiver never would.
   */
  public List<Object[]> rowsOf(TableDefinition def, String partition) {
    List<ColumnSpec> columns = def.columns();
    List<Object[]> rows = new ArrayList<>();
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("SELECT * FROM \"" + hot.schema() + "\".\"" + partition + "\"");
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
          row[i] = column(rs, columns.get(i));
        }
        rows.add(row);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return rows;
  }

  private static Object column(ResultSet rs, ColumnSpec col) throws SQLException {
    switch (col.type()) {
      case TIMESTAMPTZ:
        OffsetDateTime t = rs.getObject(col.name(), OffsetDateTime.class);
        return t == null ? null : t.toInstant();
      case DATE:
        return rs.getObject(col.name(), LocalDate.class);
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        BigDecimal d = rs.getBigDecimal(col.name());
        return d;
      default:
        return rs.getString(col.name());
    }
  }

  /** A number from a query on the test database. */
  public long scalar(String sql) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Override
  public void close() {
    cold.close();
    hot.close();
  }
}
