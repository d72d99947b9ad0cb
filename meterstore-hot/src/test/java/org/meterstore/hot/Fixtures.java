package org.meterstore.hot;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.TestDatabase;
import org.postgresql.PGConnection;

/** Readings, stores and row snapshots shared by the hot tier's tests. */
public final class Fixtures {
  /** A network operator's market partner id. */
  public static final String OPERATOR = "9900000000003";

  /** Another network operator. */
  public static final String OTHER_OPERATOR = "9900000000010";

  /** Midnight UTC, 1 March 2026 (01:00 in Berlin): the first day most tests write. */
  public static final Instant DAY = Instant.parse("2026-03-02T00:00:00Z");

  /** The write instant most tests pass as {@code now}. */
  public static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private Fixtures() {}

  /** The {@code n}-th valid MaLo-ID ({@code n} from 0 to 10^9): its BDEW check digit computed. */
  public static String malo(int n) {
    String body = String.valueOf(1_000_000_000L + n);
    int sum = 0;
    for (int i = 0; i < 10; i++) {
      int digit = body.charAt(i) - '0';
      sum += i % 2 == 0 ? digit : 2 * digit;
    }
    return body + (10 - sum % 10) % 10;
  }

  /** An electricity quarter-hour reading of meter {@code meter} starting at {@code from}. */
  public static ReadingBuilder quarterHour(int meter, Instant from, String value, String version) {
    return Reading.builder()
        .malo(malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, Resolution.PT15M)
        .value(value)
        .version(version)
        .operator(OPERATOR);
  }

  /** The 96 quarter-hours of meter {@code meter} from {@code dayStart}, values 0.001 × (i + 1). */
  public static List<Reading> day(int meter, Instant dayStart, String version) {
    List<Reading> readings = new ArrayList<>(96);
    for (int i = 0; i < 96; i++) {
      Instant from = dayStart.plus(Duration.ofMinutes(15L * i));
      readings.add(
          quarterHour(meter, from, new BigDecimal(i + 1).movePointLeft(3).toPlainString(), version)
              .build());
    }
    return readings;
  }

  /** A store on the test database with the given schema and {@code ddl_lock_timeout}. */
  public static HotStore store(TestDatabase db, String schema, Duration ddlLockTimeout) {
    return HotStore.open(
        db.dataSource(),
        HotSettings.DEFAULTS.withSchema(schema).withDdlLockTimeout(ddlLockTimeout),
        OpenTelemetry.noop());
  }

  /** Every row of {@code schema.table} as text, in primary-key order: a snapshot to compare. */
  public static List<String> rows(TestDatabase db, String schema, String table)
      throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT t::text FROM \""
                    + schema
                    + "\".\""
                    + table
                    + "\" t ORDER BY malo_id, obis_code, \"from\", version")) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }

  /**
   * Stores {@code readings} in {@code schema.table} with {@code COPY} on {@code c}, as a writer
   * around MeterStore would: no advisory lock, no check but the database's. Commits only if {@code
   * c} does.
   */
  public static void copy(
      Connection c, String schema, TableDefinition table, List<Reading> readings, Instant at)
      throws SQLException {
    StringBuilder text = new StringBuilder();
    for (Reading r : readings) {
      Object[] row = StoredRow.of(table, StoredReading.accept(r, at));
      for (int i = 0; i < row.length; i++) {
        text.append(i == 0 ? "" : "\t");
        Object v = row[i];
        text.append(
            v == null ? "\\N" : v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      }
      text.append('\n');
    }
    String columns =
        String.join(", ", table.columns().stream().map(col -> '"' + col.name() + '"').toList());
    try {
      c.unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(
              "COPY \"" + schema + "\".\"" + table.name() + "\" (" + columns + ") FROM STDIN",
              new StringReader(text.toString()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Waits until some session of the test database waits on a lock in an {@code INSERT} (a writer's
   * insert meeting another transaction's uncommitted rows), at most {@code slack}.
   */
  public static void awaitAnInsertWaitingOnALock(TestDatabase db, Duration slack)
      throws SQLException, InterruptedException {
    long deadline = System.nanoTime() + slack.toNanos();
    while (scalar(
            db,
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock'"
                + " AND (query LIKE 'INSERT INTO%' OR query LIKE 'COPY %')")
        == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no INSERT or COPY waited on a lock within " + slack);
      }
      Thread.sleep(20);
    }
  }

  /** One number from a query. */
  public static long scalar(TestDatabase db, String sql) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
