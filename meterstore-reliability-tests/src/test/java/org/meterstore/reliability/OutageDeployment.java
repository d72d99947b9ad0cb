package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.OpenTelemetry;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Rows;
import org.meterstore.testing.workload.Workload;

/**
 * One deployment for outage tests, wired the way an application wires it: a HikariCP pool of its
 * own (short connection timeout, so an outage is reported in about a second instead of Hikari's
 * default 30), the hot store on it, an Iceberg JDBC catalog in the same database — whose FileIO is
 * an {@link OutageFileIO} behind {@code power}, or the one a {@link ColdConfig} describes (then
 * {@code power} and {@code iceberg} are null) — and the façade over both. Each table has a {@link
 * ReferenceModel} fed with exactly the batches the store accepted.
 */
final class OutageDeployment implements AutoCloseable {
  /** Iceberg commit conflicts retried quickly, so failures are reported within seconds. */
  static final CommitPolicy FAST = new CommitPolicy(3, Duration.ZERO, Duration.ofMillis(5));

  static final Duration LAG = Duration.ofDays(1);
  static final Duration GRACE = Duration.ofHours(1);

  final HikariDataSource pool;
  final HotStore hot;
  final Catalog iceberg;
  final ColdStore cold;
  final MeterCatalog catalog;
  final ObjectStoreSwitch power;
  private final Map<String, ReferenceModel> models = new HashMap<>();

  OutageDeployment(
      String jdbcUrl,
      String user,
      String password,
      Path warehouse,
      List<TableDefinition> tables,
      ObjectStoreSwitch power,
      Instant created) {
    this(
        jdbcUrl,
        user,
        password,
        ColdConfig.jdbc(jdbcUrl, user, password, warehouse.toUri().toString()),
        tables,
        power,
        created,
        OpenTelemetry.noop());
  }

  /**
   * A deployment whose cold tier is the catalog {@code coldCatalog} describes (a JDBC catalog, in
   * this database or another, or a REST catalog), with its FileIO behind {@code power}, recording
   * metrics into {@code otel}.
   */
  OutageDeployment(
      String jdbcUrl,
      String user,
      String password,
      ColdConfig coldCatalog,
      List<TableDefinition> tables,
      ObjectStoreSwitch power,
      Instant created,
      OpenTelemetry otel) {
    this(jdbcUrl, user, password, tables, power, switched(coldCatalog, power), null, created, otel);
  }

  /**
   * A deployment whose cold tier is the one MeterStore builds for {@code cold} (its catalog, its
   * FileIO and store probe, e.g. {@code S3FileIO} with the configured timeouts), with no switch.
   */
  OutageDeployment(
      String jdbcUrl,
      String user,
      String password,
      ColdConfig cold,
      List<TableDefinition> tables,
      Instant created) {
    this(
        jdbcUrl,
        user,
        password,
        tables,
        null,
        null,
        cold.withCommitPolicy(FAST),
        created,
        OpenTelemetry.noop());
  }

  /** {@code cold} null: the cold tier is {@code iceberg}, committed with {@link #FAST}. */
  private OutageDeployment(
      String jdbcUrl,
      String user,
      String password,
      List<TableDefinition> tables,
      ObjectStoreSwitch power,
      Catalog iceberg,
      ColdConfig cold,
      Instant created,
      OpenTelemetry otel) {
    this.power = power;
    this.iceberg = iceberg;
    this.pool = pool(jdbcUrl, user, password);
    this.hot =
        HotStore.open(pool, HotSettings.DEFAULTS.withDdlLockTimeout(Duration.ofSeconds(3)), otel);
    this.cold =
        ColdStore.open(
            cold != null ? cold : ColdConfig.custom(iceberg).withCommitPolicy(FAST), otel);
    this.catalog = MeterCatalog.of(hot, this.cold, tables, otel, InstantSource.fixed(created));
    catalog.createTables(created);
    tables.forEach(t -> models.put(t.name(), new ReferenceModel(t)));
  }

  /**
   * A pool of the deployment's own, with a short connection timeout, so a PostgreSQL outage is
   * reported in about a second instead of Hikari's default 30.
   */
  static HikariDataSource pool(String jdbcUrl, String user, String password) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(1_000);
    config.setValidationTimeout(500);
    config.setPoolName("outage-hot");
    return new HikariDataSource(config);
  }

  /** The catalog MeterStore builds for {@code coldCatalog}, with the FileIO behind the switch. */
  private static Catalog switched(ColdConfig coldCatalog, ObjectStoreSwitch power) {
    Map<String, String> props = new HashMap<>(CatalogFactory.properties(coldCatalog));
    props.put(CatalogProperties.FILE_IO_IMPL, OutageFileIO.class.getName());
    props.put(OutageFileIO.SWITCH, power.name());
    return CatalogUtil.buildIcebergCatalog(
        "outage", props, new org.apache.hadoop.conf.Configuration());
  }

  /** A daily interval table, due one day after its window ends, reclaimed an hour after that. */
  static TableDefinition table(String name) {
    return TableDefinition.interval(name)
        .withPolicy(TablePolicy.DEFAULTS.withSettlementLag(LAG).withReaderGrace(GRACE));
  }

  /**
   * A quarter-hour of meter {@code meter} from {@code from}, under operator version day {@code v}.
   */
  static Reading reading(int meter, Instant from, String value, int v) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version(String.format("202604%02d000000", v))
        .operator(Workload.OPERATOR)
        .build();
  }

  /** A day of quarter-hours of meter {@code meter} with values that exercise all six decimals. */
  static List<Reading> day(int meter, Instant dayStart) {
    return java.util.stream.IntStream.range(0, 96)
        .mapToObj(
            q ->
                reading(
                    meter,
                    dayStart.plus(Duration.ofMinutes(15L * q)),
                    BigDecimal.valueOf(meter * 1_000_003L + q * 7_919L, 6).toPlainString(),
                    1))
        .toList();
  }

  ReferenceModel model(TableDefinition t) {
    return models.get(t.name());
  }

  /** Appends through the façade and, once accepted, feeds the model; the outcomes must agree. */
  WriteResult append(TableDefinition t, List<Reading> batch, Instant now) {
    WriteResult r = catalog.table(t.name()).append(batch, now);
    assertThat(r.outcomes()).isEqualTo(model(t).write(batch, now));
    return r;
  }

  /** Writes {@code days} days of {@code meters} meters from {@code first}, one batch per day. */
  void load(TableDefinition t, int meters, Instant first, int days, Instant now) {
    for (int d = 0; d < days; d++) {
      for (int m = 1; m <= meters; m++) {
        append(t, day(m, first.plus(Duration.ofDays(d))), now);
      }
    }
  }

  /**
   * Asserts that SQL over both tiers agrees with the model: every current row, the count and the
   * value sum to the last decimal, and every stored version.
   */
  void assertQueriesEqualModel(TableDefinition t) throws SQLException {
    ReferenceModel model = model(t);
    List<StoredReading> current = model.current();
    BigDecimal sum =
        current.stream().map(r -> r.reading().value()).reduce(BigDecimal.ZERO, BigDecimal::add);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT " + Rows.COLUMNS + " FROM " + t.name())) {
        assertThat(Rows.read(rs)).isEqualTo(Rows.of(t, current));
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*), sum(\"value\") FROM " + t.name())) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(current.size());
        assertThat(rs.getBigDecimal(2)).isEqualByComparingTo(sum);
      }
      try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + t.name() + "_versions")) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(model.versions().size());
      }
    }
  }

  /** W of {@code t}. */
  Instant watermark(TableDefinition t) {
    return catalog.table(t.name()).watermark();
  }

  /**
   * Asserts the tiering invariants: no hot row below W, and every archived window committed once
   * (no two archival commits overlap), the commits ending at W.
   */
  void assertTieringHolds(TableDefinition t) {
    Instant w = watermark(t);
    assertThat(hot.partitions().countRowsBelow(t, w)).isZero();
    List<ArchivalCommit> commits = Tiers.coldTable(catalog, t.name()).archivalCommits();
    Set<Instant> starts = new HashSet<>();
    Instant end = Instant.EPOCH;
    for (ArchivalCommit c :
        commits.stream()
            .sorted(java.util.Comparator.comparingLong(ArchivalCommit::sequenceNumber))
            .toList()) {
      assertThat(starts.add(c.from())).as("window %s committed once", c.from()).isTrue();
      assertThat(c.from()).as("commits follow each other").isAfterOrEqualTo(end);
      end = c.to();
    }
    if (!commits.isEmpty()) {
      assertThat(end).isEqualTo(w);
    }
  }

  /** A number from SQL through the façade. */
  long count(String sql) throws SQLException {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** One column of the first {@code system.tables} row, refreshed at {@code now}, as text. */
  String systemTables(Instant now, String column) throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT \"" + column + "\" FROM \"system\".\"tables\"")) {
      assertThat(rs.next()).as("a system.tables row").isTrue();
      return rs.getString(1);
    }
  }

  @Override
  public void close() {
    catalog.close();
    cold.close();
    if (iceberg instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        // the test is over
      }
    }
    hot.close();
    pool.close();
  }
}
