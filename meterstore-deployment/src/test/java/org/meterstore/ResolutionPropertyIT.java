package org.meterstore;

import static io.opentelemetry.api.OpenTelemetry.noop;
import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Rows;
import org.meterstore.testing.workload.Workload;

/**
 * The tier split and version resolution against the independent reference model, through the
 * façade: generated deliveries (corrections, redeliveries, gaps, DST days, gas days) are appended,
 * several windows are archived one by one through the real archiver (a random half followed by a
 * reclaim run, which drops every detached partition whose grace is over, so the newest may stay
 * detached), late corrections appended after that are routed below W to the cold tier by {@code
 * append}, and random {@code from} ranges read through JDBC must return exactly the reference's
 * current rows, with sums equal to the last decimal.
 */
@ExtendWith(PostgresExtension.class)
class ResolutionPropertyIT {
  @TempDir Path warehouse;

  static Stream<Arguments> seeds() {
    return Stream.of(
        Arguments.of(11L, LocalDate.of(2026, 3, 27)),
        Arguments.of(23L, LocalDate.of(2026, 10, 23)),
        Arguments.of(37L, LocalDate.of(2026, 1, 30)));
  }

  @ParameterizedTest(name = "seed {0} from {1}")
  @MethodSource("seeds")
  void queriesEqualTheReferenceRowForRow(long seed, LocalDate firstDay, TestDatabase db)
      throws Exception {
    Random random = new Random(seed);
    TableDefinition def = TableDefinition.interval("prop_" + seed);
    Instant start = Instant.parse("2026-12-01T00:00:00Z");
    ReferenceModel reference = new ReferenceModel(def);
    AtomicReference<Instant> clock = new AtomicReference<>(start);
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    try (CatalogFixture d =
            new CatalogFixture(db, warehouse.resolve("w" + seed), Duration.ofSeconds(3), noop());
        MeterCatalog catalog = MeterCatalog.of(d.hot, d.cold, List.of(def), otel, clock::get)) {
      catalog.createTables(start);
      Workload workload = new Workload(3, firstDay, 5, 2, 0.06, 0.2, seed);
      List<Workload.Delivery> corrections = new ArrayList<>();
      for (Workload.Delivery delivery : workload.deliveries()) {
        if (delivery.correction()) {
          corrections.add(delivery);
        } else {
          write(catalog, clock, def, reference, withGaps(delivery.readings(), random));
        }
      }
      List<PartitionInfo> partitions = d.hot.partitions().list(def);
      int archived = 1 + random.nextInt(partitions.size() - 1);
      for (PartitionInfo p : partitions.subList(0, archived)) {
        d.archive(def, p.lowerBound(), p.upperBound(), random.nextBoolean());
      }
      for (Workload.Delivery delivery : corrections) {
        write(catalog, clock, def, reference, delivery.readings());
      }
      Instant first = partitions.get(0).lowerBound();
      Instant last = partitions.get(partitions.size() - 1).upperBound();
      try (Connection c = catalog.connection()) {
        assertRange(c, def, reference, null, null);
        for (int i = 0; i < 6; i++) {
          Instant a = between(random, first.minus(Duration.ofHours(3)), last);
          Instant b = between(random, a, last.plus(Duration.ofHours(3)));
          assertRange(c, def, reference, a, b);
        }
      }
      assertThat(coldRows(metrics, "columnar"))
          .as("cold rows read through the column-batch reader")
          .isPositive();
    }
  }

  private static void write(
      MeterCatalog catalog,
      AtomicReference<Instant> clock,
      TableDefinition def,
      ReferenceModel reference,
      List<Reading> batch) {
    Instant now = clock.get();
    reference.write(batch, now);
    catalog.table(def.name()).append(batch, now);
    clock.set(now.plus(Duration.ofMinutes(1)));
  }

  private static List<Reading> withGaps(List<Reading> readings, Random random) {
    return readings.stream().filter(r -> random.nextInt(25) != 0).toList();
  }

  private static Instant between(Random random, Instant a, Instant b) {
    long minutes = Math.max(1, Duration.between(a, b).toMinutes() / 15);
    return a.plus(Duration.ofMinutes(15 * (long) random.nextInt((int) minutes)));
  }

  private static void assertRange(
      Connection c, TableDefinition def, ReferenceModel reference, Instant a, Instant b)
      throws Exception {
    String where = a == null ? "" : " WHERE \"from\" >= ? AND \"from\" < ?";
    List<StoredReading> expected =
        reference.current().stream()
            .filter(
                r ->
                    a == null
                        || (!r.reading().from().isBefore(a) && r.reading().from().isBefore(b)))
            .toList();
    try (PreparedStatement s =
        c.prepareStatement("SELECT " + Rows.COLUMNS + " FROM " + def.name() + where)) {
      bind(s, a, b);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(Rows.read(rs)).as("rows in [%s, %s)", a, b).isEqualTo(Rows.of(def, expected));
      }
    }
    try (PreparedStatement s =
        c.prepareStatement("SELECT sum(\"value\"), count(*) FROM " + def.name() + where)) {
      bind(s, a, b);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        BigDecimal sum =
            expected.stream()
                .map(r -> r.reading().value())
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal actual = rs.getBigDecimal(1) == null ? BigDecimal.ZERO : rs.getBigDecimal(1);
        assertThat(actual).as("sum in [%s, %s)", a, b).isEqualByComparingTo(sum);
        assertThat(rs.getLong(2)).isEqualTo(expected.size());
      }
    }
    assertGrouped(c, def, expected, a, b);
  }

  /**
   * Per location and balancing month, sum and count: once in a form both tiers aggregate inside
   * their scans, once with an expression argument that Calcite must aggregate over the rows the
   * tiers return. Both must equal the reference to the last decimal.
   */
  private static void assertGrouped(
      Connection c, TableDefinition def, List<StoredReading> expected, Instant a, Instant b)
      throws Exception {
    Map<String, BigDecimal[]> byGroup = new TreeMap<>();
    for (StoredReading r : expected) {
      String key = r.reading().maloId().value() + "|" + r.balancingDay().getMonthValue();
      BigDecimal[] acc =
          byGroup.computeIfAbsent(key, k -> new BigDecimal[] {BigDecimal.ZERO, BigDecimal.ZERO});
      acc[0] = acc[0].add(r.reading().value());
      acc[1] = acc[1].add(BigDecimal.ONE);
    }
    List<String> want = new ArrayList<>();
    byGroup.forEach(
        (k, v) -> want.add(k + "|" + v[0].stripTrailingZeros().toPlainString() + "|" + v[1]));
    want.sort(null);
    String where = a == null ? "" : " WHERE \"from\" >= ? AND \"from\" < ?";
    for (String sum : List.of("sum(\"value\")", "sum(\"value\" * 1)")) {
      String sql =
          "SELECT malo_id, EXTRACT(MONTH FROM balancing_day), "
              + sum
              + ", count(*) FROM "
              + def.name()
              + where
              + " GROUP BY malo_id, EXTRACT(MONTH FROM balancing_day)";
      assertThat(explain(c, sql))
          .as("the plain sum is computed inside both scans, the expression by Calcite over rows")
          .contains(sum.contains("*") ? "MeterColdScan" : "MeterColdAggregate")
          .doesNotContain(sum.contains("*") ? "MeterColdAggregate" : "MeterColdScan");
      try (PreparedStatement s = c.prepareStatement(sql)) {
        bind(s, a, b);
        List<String> got = new ArrayList<>();
        try (ResultSet rs = s.executeQuery()) {
          while (rs.next()) {
            got.add(
                rs.getString(1)
                    + "|"
                    + rs.getLong(2)
                    + "|"
                    + rs.getBigDecimal(3).stripTrailingZeros().toPlainString()
                    + "|"
                    + rs.getLong(4));
          }
        }
        got.sort(null);
        assertThat(got).as("%s in [%s, %s)", sum, a, b).isEqualTo(want);
      }
    }
  }

  private static String explain(Connection c, String sql) throws Exception {
    StringBuilder b = new StringBuilder();
    try (java.sql.Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      while (rs.next()) {
        b.append(rs.getString(1));
      }
    }
    return b.toString();
  }

  private static long coldRows(InMemoryMetricReader reader, String path) {
    return reader.collectAllMetrics().stream()
        .filter(m -> m.getName().equals("meterstore.query.cold.rows"))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .filter(p -> path.equals(p.getAttributes().get(AttributeKey.stringKey("path"))))
        .mapToLong(p -> p.getValue())
        .sum();
  }

  private static void bind(PreparedStatement s, Instant a, Instant b) throws Exception {
    if (a != null) {
      s.setTimestamp(1, Timestamp.from(a));
      s.setTimestamp(2, Timestamp.from(b));
    }
  }
}
