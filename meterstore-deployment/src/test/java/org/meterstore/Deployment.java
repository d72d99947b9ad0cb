package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * Both tiers of one test deployment on the test database (the JDBC catalog lives there too) and a
 * warehouse directory, plus the per-day tallies the tests compare against the reference model.
 */
final class Deployment implements AutoCloseable {
  static final CommitPolicy FAST = new CommitPolicy(3, Duration.ZERO, Duration.ofMillis(5));
  static final String SCHEMA = "meterstore";
  static final int FROM = 4;
  static final int VALUE = 6;

  final HotStore hot;
  final ColdStore cold;
  final TestDatabase db;

  Deployment(TestDatabase db, Path warehouse, Duration ddlLockTimeout, OpenTelemetry otel) {
    this.db = db;
    this.hot =
        HotStore.open(
            db.dataSource(),
            HotSettings.DEFAULTS.withSchema(SCHEMA).withDdlLockTimeout(ddlLockTimeout),
            otel);
    this.cold = ColdStore.open(coldConfig(db.jdbcUrl(), db.user(), db.password(), warehouse), otel);
  }

  static ColdConfig coldConfig(String url, String user, String password, Path warehouse) {
    return ColdConfig.jdbc(url, user, password, warehouse.toUri().toString())
        .withCommitPolicy(FAST);
  }

  /** A daily table with the given settlement lag and reader grace. */
  static TableDefinition table(String name, Duration settlementLag, Duration readerGrace) {
    return TableDefinition.interval(name)
        .withPolicy(
            TablePolicy.DEFAULTS.withSettlementLag(settlementLag).withReaderGrace(readerGrace));
  }

  MeterCatalog catalog(List<TableDefinition> tables, OpenTelemetry otel) {
    return MeterCatalog.of(hot, cold, tables, otel);
  }

  /** Writes every delivery of {@code workload} to the hot tier and the model, ten at a time. */
  void write(TableDefinition table, Workload workload, ReferenceModel model, Instant now) {
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
  Map<LocalDate, Tally> tiers(TableDefinition table) throws SQLException {
    Map<LocalDate, Tally> days = new TreeMap<>();
    try (CloseableIterable<Object[]> rows = cold.table(table).read()) {
      for (Object[] row : rows) {
        add(days, (Instant) row[FROM], (BigDecimal) row[VALUE]);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"from\", value FROM \"" + SCHEMA + "\".\"" + table.name() + "\"")) {
      while (rs.next()) {
        add(days, rs.getObject(1, java.time.OffsetDateTime.class).toInstant(), rs.getBigDecimal(2));
      }
    }
    return days;
  }

  /** Rows and value sums per UTC day of every stored version in the model. */
  static Map<LocalDate, Tally> expected(TableDefinition table, ReferenceModel model) {
    Map<LocalDate, Tally> days = new TreeMap<>();
    for (StoredReading s : model.versions()) {
      Object[] row = StoredRow.of(table, s);
      add(days, (Instant) row[FROM], (BigDecimal) row[VALUE]);
    }
    return days;
  }

  private static void add(Map<LocalDate, Tally> days, Instant from, BigDecimal value) {
    days.merge(LocalDate.ofInstant(from, ZoneOffset.UTC), new Tally(1, value), Tally::plus);
  }

  /** Rows in the cold table's current snapshot. */
  long coldRows(TableDefinition table) {
    long n = 0;
    try (CloseableIterable<Object[]> rows = cold.table(table).read()) {
      for (Object[] ignored : rows) {
        n++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return n;
  }

  /** A number from a query on the test database. */
  long scalar(String sql) throws SQLException {
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

  /** A day's row count and exact value sum. */
  record Tally(long rows, BigDecimal sum) {
    Tally plus(Tally other) {
      return new Tally(rows + other.rows, sum.add(other.sum));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Tally t && t.rows == rows && t.sum.compareTo(sum) == 0;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(rows) * 31 + sum.stripTrailingZeros().hashCode();
    }
  }
}
