package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.explain;
import static org.meterstore.query.Fixtures.hourly;
import static org.meterstore.query.Fixtures.query;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Rows;
import org.meterstore.testing.workload.Workload;

/**
 * Aggregations over the hot tier run in PostgreSQL ({@code MeterHotAggregate}: a {@code GROUP BY}
 * over the resolved rows), rolled up with the cold tier's partial result when the range spans W,
 * and give the same numbers as aggregating the relation's rows one by one. Aggregates PostgreSQL
 * could compute differently (text ordering) or filters it cannot take stay in Calcite.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregatePushdownIT {
  private static final TableDefinition DEF = TableDefinition.interval("lastgang");
  private static final String CORRECTION = "20260106000000";

  @TempDir static Path warehouse;
  private QueryFixture d;
  private Connection c;

  @BeforeAll
  void setUp(TestDatabase db) throws Exception {
    d = new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(DEF));
    d.hot.write(DEF, hourly(3, DAY1, DAY4, "20260105000000"), d.clock.instant());
    d.archive(DEF, DAY1, DAY2, true);
    List<Reading> corrections = new ArrayList<>();
    for (int h = 0; h < 8; h++) {
      corrections.add(Fixtures.reading(2, DAY3.plus(Duration.ofHours(h)), "100." + h, CORRECTION));
    }
    d.hot.write(DEF, corrections, d.clock.instant());
    c = d.catalog.connection();
  }

  @AfterAll
  void tearDown() throws Exception {
    c.close();
    d.close();
  }

  @Test
  void aGroupedAggregateAboveTheWatermarkRunsInPostgres() throws Exception {
    String where = " WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00'";
    String sql =
        "SELECT malo_id, sum(\"value\"), count(*), min(\"value\"), max(\"from\") FROM lastgang"
            + where
            + " GROUP BY malo_id";
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("MeterHotAggregate(table=[lastgang]")
        .contains("GROUP BY \"malo_id\"")
        .contains("ROW_NUMBER() OVER")
        .doesNotContain("MeterHotScan")
        .contains("reads=[nothing now (range at or above W)]");
    assertThat(query(c, sql)).isEqualTo(byHand(where));
    String corrected = sumOf(Workload.malo(2), where);
    assertThat(new BigDecimal(corrected))
        .as("meter 2 counts its corrected hours once, at the corrected value")
        .isEqualByComparingTo(expectedSumOfMeter2());
  }

  @Test
  void anAggregateAcrossTheWatermarkRollsUpBothTiers() throws Exception {
    String where =
        " WHERE \"from\" >= TIMESTAMP '2026-01-01 12:00:00' AND \"from\" < TIMESTAMP '2026-01-03"
            + " 06:00:00'";
    String sql =
        "SELECT malo_id, sum(\"value\"), count(*), min(\"value\"), max(\"from\") FROM lastgang"
            + where
            + " GROUP BY malo_id";
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("MeterHotAggregate")
        .containsPattern("EnumerableUnion\\(all=\\[true\\]\\)\\s+MeterHotAggregate")
        .containsPattern("MeterHotAggregate[^\\n]*\\n\\s*MeterColdAggregate")
        .doesNotContain("MeterHotScan")
        .doesNotContain("MeterColdScan");
    assertThat(query(c, sql)).isEqualTo(byHand(where));
  }

  @Test
  void calendarGroupKeysAreTruncatedInPostgres() throws Exception {
    String daily =
        "SELECT malo_id, FLOOR(\"from\" TO DAY), sum(\"value\"), count(*) FROM lastgang"
            + " GROUP BY malo_id, FLOOR(\"from\" TO DAY)";
    assertThat(explain(c, daily))
        .contains("MeterHotAggregate")
        .contains("DATE_TRUNC('day', \"from\", 'UTC')")
        .doesNotContain("MeterHotScan");
    Map<String, BigDecimal> sums = new TreeMap<>();
    Map<String, Long> counts = new TreeMap<>();
    for (String row : query(c, "SELECT malo_id, \"from\", \"value\" FROM lastgang")) {
      String[] f = row.split("\\|");
      String key = f[0] + "|" + f[1].substring(0, 10) + "T00:00:00Z";
      sums.merge(key, new BigDecimal(f[2]), BigDecimal::add);
      counts.merge(key, 1L, Long::sum);
    }
    List<String> expected = new ArrayList<>();
    sums.forEach((k, v) -> expected.add(k + "|" + Rows.text(v) + "|" + counts.get(k) + "|"));
    assertThat(query(c, daily)).hasSize(3 * 3).isEqualTo(expected);

    String monthly =
        "SELECT FLOOR(balancing_day TO MONTH), count(*) FROM lastgang WHERE \"from\" >="
            + " TIMESTAMP '2026-01-02 00:00:00' GROUP BY FLOOR(balancing_day TO MONTH)";
    assertThat(explain(c, monthly))
        .contains("CAST(DATE_TRUNC('month', \"balancing_day\") AS DATE)")
        .contains("reads=[nothing now (range at or above W)]");
    assertThat(query(c, monthly)).containsExactly("2026-01-01|" + 3 * 48 + "|");
  }

  @Test
  void aGlobalAggregateOverAnEmptyHotRangeStillReturnsItsOneRow() throws Exception {
    try (PreparedStatement s =
        c.prepareStatement("SELECT count(*), sum(\"value\") FROM lastgang WHERE \"from\" >= ?")) {
      s.setTimestamp(1, Timestamp.from(Instant.parse("2027-01-01T00:00:00Z")));
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isZero();
        assertThat(rs.getBigDecimal(2)).isNull();
        assertThat(rs.next()).isFalse();
      }
      s.setTimestamp(1, Timestamp.from(DAY3));
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(3 * 24);
      }
    }
  }

  @Test
  void whatPostgresMightComputeDifferentlyStaysInCalcite() throws Exception {
    String textMin =
        "SELECT min(quality) FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00'";
    assertThat(explain(c, textMin)).contains("MeterHotScan").doesNotContain("MeterHotAggregate");
    assertThat(query(c, textMin)).containsExactly("MEASURED|");

    String function =
        "SELECT count(*) FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-02 00:00:00'"
            + " AND CHAR_LENGTH(malo_id) = 11";
    assertThat(explain(c, function)).contains("MeterHotScan").doesNotContain("MeterHotAggregate");
    assertThat(query(c, function)).containsExactly(3 * 48 + "|");
  }

  /** The rows of {@code where} aggregated here, per market location, in the query's format. */
  private List<String> byHand(String where) throws Exception {
    Map<String, BigDecimal> sums = new TreeMap<>();
    Map<String, Long> counts = new TreeMap<>();
    Map<String, BigDecimal> mins = new TreeMap<>();
    Map<String, Instant> maxFrom = new TreeMap<>();
    try (PreparedStatement s =
            c.prepareStatement("SELECT malo_id, \"value\", \"from\" FROM lastgang" + where);
        ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        String malo = rs.getString(1);
        BigDecimal v = rs.getBigDecimal(2);
        Instant from = rs.getTimestamp(3).toInstant();
        sums.merge(malo, v, BigDecimal::add);
        counts.merge(malo, 1L, Long::sum);
        mins.merge(malo, v, BigDecimal::min);
        maxFrom.merge(malo, from, (a, b) -> a.isAfter(b) ? a : b);
      }
    }
    assertThat(sums).isNotEmpty();
    List<String> out = new ArrayList<>();
    for (String malo : sums.keySet()) {
      out.add(
          String.join(
                  "|",
                  malo,
                  Rows.text(sums.get(malo)),
                  String.valueOf(counts.get(malo)),
                  Rows.text(mins.get(malo)),
                  maxFrom.get(malo).toString())
              + "|");
    }
    return out;
  }

  private String sumOf(String malo, String where) throws Exception {
    return Fixtures.scalar(
        c, "SELECT sum(\"value\") FROM lastgang" + where + " AND malo_id = '" + malo + "'");
  }

  private static BigDecimal expectedSumOfMeter2() {
    BigDecimal sum = BigDecimal.ZERO;
    for (Instant t = DAY2; t.isBefore(DAY4); t = t.plus(Duration.ofHours(1))) {
      long h = Duration.between(DAY3, t).toHours();
      if (h >= 0 && h < 8) {
        sum = sum.add(new BigDecimal("100." + h));
      } else {
        sum = sum.add(new BigDecimal("2." + (t.getEpochSecond() / 3600 % 10)));
      }
    }
    return sum;
  }
}
