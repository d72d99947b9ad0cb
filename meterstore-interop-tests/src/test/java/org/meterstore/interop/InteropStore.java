package org.meterstore.interop;

import io.opentelemetry.api.OpenTelemetry;
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
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.meterstore.MeterCatalog;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * One MeterStore deployment in a state foreign engines are compared on: table {@value #TABLE} holds
 * electricity (15 min, calendar days) and gas (hourly, gas days) from {@value #FIRST_DAY} over the
 * autumn DST change (25 October 2026) to {@code 2 November}, delivered day by day as the workload's
 * clock runs, with a daily maintenance cycle at 07:00 UTC. Corrections arrive 1–20 days after their
 * originals, so the cold tier holds several versions of many readings (some written after archival,
 * some after reclamation) and the hot tier holds originals and corrections of the last days.
 * Nothing writes after {@link #build} returns.
 *
 * <p>The hot tier's schema is {@value TwoTiers#SCHEMA}; the Iceberg catalog is a JDBC catalog in
 * the same database (catalog name {@code meterstore}, namespace {@code meterstore}) with its
 * warehouse in a local directory.
 */
public final class InteropStore implements AutoCloseable {
  /** The table name, in both tiers. */
  public static final String TABLE = "lastgang";

  /** The first balancing day of the workload. */
  public static final String FIRST_DAY = "2026-10-10";

  private static final LocalDate LAST_DAY = LocalDate.of(2026, 11, 2);
  private static final Instant END = Instant.parse("2026-11-03T12:00:00Z");

  private final TestDatabase db;
  private final Path warehouse;
  private final TwoTiers tiers;
  private final MeterCatalog catalog;
  private final TableDefinition table;
  private final Instant now;

  private InteropStore(
      TestDatabase db,
      Path warehouse,
      TwoTiers tiers,
      MeterCatalog catalog,
      TableDefinition table,
      Instant now) {
    this.db = db;
    this.warehouse = warehouse;
    this.tiers = tiers;
    this.catalog = catalog;
    this.table = table;
    this.now = now;
  }

  /** Builds the deployment on {@code db} with its warehouse in {@code warehouse}. */
  public static InteropStore build(TestDatabase db, Path warehouse) {
    return build(db, warehouse, true);
  }

  /**
   * {@link #build} with MeterStore's compaction off, so the cold tier keeps one small file per
   * archived day: the input a foreign engine's compaction rewrites.
   */
  public static InteropStore buildUncompacted(TestDatabase db, Path warehouse) {
    return build(db, warehouse, false);
  }

  private static InteropStore build(TestDatabase db, Path warehouse, boolean compact) {
    TableDefinition def =
        TableDefinition.interval(TABLE)
            .withPolicy(
                TablePolicy.DEFAULTS
                    .withSettlementLag(Duration.ofDays(2))
                    .withReaderGrace(Duration.ofHours(1))
                    .withPartitionHeadroom(Duration.ofDays(3)));
    Workload workload =
        new Workload(
            6,
            LocalDate.parse(FIRST_DAY),
            (int) (LAST_DAY.toEpochDay() - LocalDate.parse(FIRST_DAY).toEpochDay() + 1),
            3,
            0.05,
            0.02,
            17);
    AtomicReference<Instant> clock = new AtomicReference<>(Instant.parse("2026-10-09T00:00:00Z"));
    TwoTiers tiers = new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
    MeterCatalog catalog;
    try {
      catalog =
          MeterCatalog.of(tiers.hot, tiers.cold, List.of(def), OpenTelemetry.noop(), clock::get);
    } catch (RuntimeException e) {
      tiers.close();
      throw e;
    }
    try {
      catalog.createTables(clock.get());
      List<Timed> deliveries = new ArrayList<>();
      for (Workload.Delivery d : workload.deliveries()) {
        // a delivery arrives one hour after the instant its operator version names
        Instant at = versionInstant(d.readings().get(0).version().toString()).plusSeconds(3600);
        if (!at.isAfter(END)) {
          deliveries.add(new Timed(at, d));
        }
      }
      deliveries.sort(Comparator.comparing(Timed::at));
      Instant nextCycle = Instant.parse("2026-10-10T07:00:00Z");
      for (Timed t : deliveries) {
        while (!nextCycle.isAfter(t.at())) {
          clock.set(nextCycle);
          catalog.maintenance().compact(compact).runOnce(nextCycle);
          nextCycle = nextCycle.plus(Duration.ofDays(1));
        }
        clock.set(t.at());
        catalog.table(TABLE).append(t.delivery().readings(), t.at());
      }
      while (!nextCycle.isAfter(END)) {
        clock.set(nextCycle);
        catalog.maintenance().compact(compact).runOnce(nextCycle);
        nextCycle = nextCycle.plus(Duration.ofDays(1));
      }
      clock.set(END);
      catalog.refreshSystemTables(END);
      return new InteropStore(db, warehouse, tiers, catalog, def, END);
    } catch (RuntimeException e) {
      catalog.close();
      tiers.close();
      throw e;
    }
  }

  private static Instant versionInstant(String version) {
    return ZonedDateTime.of(
            Integer.parseInt(version.substring(0, 4)),
            Integer.parseInt(version.substring(4, 6)),
            Integer.parseInt(version.substring(6, 8)),
            Integer.parseInt(version.substring(8, 10)),
            Integer.parseInt(version.substring(10, 12)),
            Integer.parseInt(version.substring(12, 14)),
            0,
            ZoneOffset.UTC)
        .toInstant();
  }

  private record Timed(Instant at, Workload.Delivery delivery) {}

  public TestDatabase db() {
    return db;
  }

  public Path warehouse() {
    return warehouse;
  }

  public MeterCatalog catalog() {
    return catalog;
  }

  public TableDefinition table() {
    return table;
  }

  /** The workload clock when {@link #build} returned. */
  public Instant now() {
    return now;
  }

  /** The table's row of {@code "system".seam} (computed at {@link #now()}). */
  public Seam seam() throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"snapshot_id\", \"watermark\", \"cold_table\", \"hot_table\","
                    + " \"spark_sql\", \"trino_sql\", \"servable\" FROM \"system\".seam WHERE"
                    + " \"table\" = '"
                    + TABLE
                    + "'")) {
      if (!rs.next()) {
        throw new IllegalStateException("system.seam has no row for " + TABLE);
      }
      return new Seam(
          rs.getLong(1),
          rs.getTimestamp(2).toInstant(),
          rs.getString(3),
          rs.getString(4),
          rs.getString(5),
          rs.getString(6),
          rs.getBoolean(7));
    }
  }

  /**
   * Pins the table's current state for a job ({@code ttl} three days) and returns the pin's row of
   * {@code "system".pins}: id, S, W and the federated query of that state for each engine.
   */
  public Pinned pin(String holder) throws SQLException {
    long id = catalog.table(TABLE).pins().pin(java.time.Duration.ofDays(3), holder, now).id();
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        java.sql.PreparedStatement s =
            c.prepareStatement(
                "SELECT \"snapshot_id\", \"watermark\", \"spark_sql\", \"trino_sql\" FROM"
                    + " \"system\".pins WHERE \"id\" = ?")) {
      s.setLong(1, id);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("system.pins has no pin " + id);
        }
        return new Pinned(
            id, rs.getLong(1), rs.getTimestamp(2).toInstant(), rs.getString(3), rs.getString(4));
      }
    }
  }

  /**
   * Runs the maintenance cycle once a day for {@code days} days after {@link #now()}, and requires
   * every cycle to leave the table's archival waiting ({@code HELD}: a pin holds it).
   */
  public void maintainWhilePinned(int days) {
    for (int day = 1; day <= days; day++) {
      Instant cycle = now.plus(java.time.Duration.ofDays(day));
      var row = catalog.maintenance().runOnce(cycle).row(TABLE).orElseThrow();
      if (row.status() != org.meterstore.maintenance.outcome.TableOutcome.Status.HELD) {
        throw new IllegalStateException("cycle " + cycle + " was not held by the pin: " + row);
      }
    }
  }

  /**
   * Leaves the first hot partition from W up pending detach, as a deferred archival cycle does: a
   * reader's open transaction holds up the second step of {@code DETACH … CONCURRENTLY} until the
   * hot tier's lock timeout interrupts it. The hot parent then no longer shows the partition's rows
   * (the seam's SQL would miss them, so the seam flags it), while the resolved view reads the
   * partition by name. Returns the partition's name.
   */
  public String leaveFirstPartitionAboveWPendingDetach() throws SQLException {
    Instant w = seam().watermark();
    String name =
        tiers.hot.partitions().list(table).stream()
            .filter(p -> !p.lowerBound().isBefore(w))
            .findFirst()
            .orElseThrow()
            .name();
    try (Connection reader = db.connect()) {
      reader.setAutoCommit(false);
      try (Statement s = reader.createStatement()) {
        s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + TABLE + "\"").close();
      }
      try {
        tiers.hot.partitions().detach(table, name, DetachMode.CONCURRENTLY);
      } catch (MeterStoreException e) {
        if (e.kind() != ErrorKind.LOCK_TIMEOUT) {
          throw e;
        }
      }
      reader.rollback();
    }
    PartitionState state =
        tiers.hot.partitions().list(table).stream()
            .filter(p -> p.name().equals(name))
            .findFirst()
            .orElseThrow()
            .state();
    if (state != PartitionState.DETACH_PENDING) {
      throw new IllegalStateException(name + " is " + state + ", not pending detach");
    }
    return name;
  }

  /** A state pin as {@code "system".pins} shows it. */
  public record Pinned(
      long id, long snapshotId, Instant watermark, String sparkSql, String trinoSql) {}

  /** The {@code value} of {@code setting} for the table in {@code "system".resolution}. */
  public String resolutionSetting(String setting) throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        java.sql.PreparedStatement s =
            c.prepareStatement(
                "SELECT \"value\" FROM \"system\".resolution WHERE \"table\" = ? AND"
                    + " \"setting\" = ?")) {
      s.setString(1, TABLE);
      s.setString(2, setting);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("system.resolution has no " + setting);
        }
        return rs.getString(1);
      }
    }
  }

  /**
   * The table's row of {@code "system".seam}: the cold snapshot S and its watermark W, the two
   * tables, the federated query for each engine (cold at S below W, hot from W on, versions
   * resolved), and whether that query finds every reading ({@code servable}).
   */
  public record Seam(
      long snapshotId,
      Instant watermark,
      String coldTable,
      String hotTable,
      String sparkSql,
      String trinoSql,
      boolean servable) {}

  /**
   * MeterStore's own answer: every current reading of the table (both tiers), one line each, in
   * {@link #line} form, sorted.
   */
  public List<String> currentRows() throws SQLException {
    return rows("SELECT * FROM \"" + TABLE + "\"");
  }

  /** Every line {@code sql} (over MeterStore's driver) returns, in {@link #line} form, sorted. */
  public List<String> rows(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(
            line(
                rs.getString("malo_id"),
                rs.getString("obis_code"),
                rs.getTimestamp("from").toInstant(),
                rs.getString("version_scope"),
                rs.getBigDecimal("version"),
                rs.getBigDecimal("value"),
                rs.getString("quality"),
                rs.getDate("balancing_day").toLocalDate()));
      }
    }
    out.sort(Comparator.naturalOrder());
    return out;
  }

  /**
   * One reading as every engine's test prints it: {@code malo|obis|from|scope|version|value|
   * quality|balancing_day}, with {@code from} as an ISO instant in UTC, the decimals without
   * trailing zeros and the day as {@code yyyy-MM-dd}.
   */
  public static String line(
      String malo,
      String obis,
      Instant from,
      String scope,
      BigDecimal version,
      BigDecimal value,
      String quality,
      LocalDate balancingDay) {
    return String.join(
        "|",
        malo,
        obis,
        from.toString(),
        scope,
        plain(version),
        plain(value),
        quality,
        balancingDay.toString());
  }

  /**
   * {@code "from" < TIMESTAMP '…'} in MeterStore's SQL: its timestamps are zone-less and UTC, so
   * the literal is {@code w} in UTC without a zone.
   */
  public static String fromBefore(Instant w) {
    return "\"from\" < TIMESTAMP '" + w.toString().replace('T', ' ').replace("Z", "") + "'";
  }

  /**
   * {@code COUNT(*)} and {@code SUM(value)} as the first two columns of {@code sql}'s one row,
   * asked of another engine's connection (DuckDB, PostgreSQL, Trino).
   */
  public static List<String> totals(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      BigDecimal sum = rs.getBigDecimal(2);
      return List.of(Long.toString(rs.getLong(1)), sum == null ? "0" : plain(sum));
    }
  }

  /** {@code d} without trailing zeros, never in exponent form. */
  public static String plain(BigDecimal d) {
    return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
  }

  /** MeterStore's {@code COUNT(*)} and {@code SUM("value")} of {@code relation}. */
  public List<String> totals(String relation) throws SQLException {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM " + relation)) {
      rs.next();
      return List.of(Long.toString(rs.getLong(1)), plain(rs.getBigDecimal(2)));
    }
  }

  /**
   * MeterStore's sum of {@code value} per {@code balancing_day} for rows matching {@code where}.
   */
  public Map<LocalDate, String> dailyTotals(String where) throws SQLException {
    Map<LocalDate, String> out = new TreeMap<>();
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"balancing_day\", SUM(\"value\") FROM \""
                    + TABLE
                    + "\" WHERE "
                    + where
                    + " GROUP BY \"balancing_day\"")) {
      while (rs.next()) {
        out.put(rs.getDate(1).toLocalDate(), plain(rs.getBigDecimal(2)));
      }
    }
    return out;
  }

  @Override
  public void close() {
    try {
      catalog.close();
    } finally {
      tiers.close();
    }
  }
}
