package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.explain;
import static org.meterstore.query.Fixtures.hourly;
import static org.meterstore.query.Fixtures.scalar;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Routing by the {@code from} predicates, shown in {@code EXPLAIN}: every plan has a hot and a cold
 * side (plans do not depend on W), and the plan text says what each side reads now — hot only, cold
 * only, split at W — and what is pushed into PostgreSQL (SQL with bound parameters, resolution by
 * {@code row_number()}) and into the Iceberg scan (its filter expression).
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TierRoutingIT {
  private static final TableDefinition DEF = TableDefinition.interval("lastgang");
  private static final String W = "TIMESTAMP '2026-01-02 00:00:00'";

  @TempDir static Path warehouse;
  private QueryFixture d;
  private Connection c;

  @BeforeAll
  void setUp(TestDatabase db) throws Exception {
    d = new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(DEF));
    d.hot.write(DEF, hourly(2, DAY1, DAY4, "20260105000000"), d.clock.instant());
    d.archive(DEF, DAY1, DAY2, true);
    c = d.catalog.connection();
  }

  @AfterAll
  void tearDown() throws Exception {
    c.close();
    d.close();
  }

  @Test
  void aRangeAtOrAboveTheWatermarkScansTheHotTierOnly() throws Exception {
    String sql =
        "SELECT malo_id, \"value\" FROM lastgang WHERE \"from\" >= "
            + W
            + " AND malo_id = '"
            + org.meterstore.testing.workload.Workload.malo(1)
            + "'";
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("MeterHotScan(table=[lastgang]")
        .contains("MeterColdScan(table=[lastgang]")
        .contains("reads=[nothing now (range at or above W)]")
        .contains("preds=[from >= 2026-01-02T00:00:00Z AND malo_id = '")
        .contains("\"malo_id\" = ?")
        .contains(
            "ROW_NUMBER() OVER (PARTITION BY \"malo_id\", \"obis_code\", \"from\", \"version_scope\"")
        .contains("partitions=[2 [lastgang_2026_01_02_0000..lastgang_2026_01_03_0000]]");
    assertThat(Fixtures.query(c, sql)).hasSize(48);
  }

  @Test
  void aRangeBelowTheWatermarkScansTheColdTierOnly() throws Exception {
    String sql = "SELECT \"from\", \"value\" FROM lastgang WHERE \"from\" < " + W;
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("MeterColdScan(table=[lastgang]")
        .contains("reads=[nothing now (no hot partition in range)]")
        .contains("filter=[(ref(name=\"from\") < 1767312000000000")
        .contains("resolution=[");
    assertThat(Fixtures.query(c, sql)).hasSize(48);
  }

  @Test
  void aRangeAcrossTheWatermarkIsSplitWithUnionAll() throws Exception {
    String sql =
        "SELECT count(*), sum(\"value\") FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-01"
            + " 12:00:00' AND \"from\" < TIMESTAMP '2026-01-02 12:00:00'";
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("EnumerableUnion(all=[true])")
        .contains("MeterHotAggregate")
        .contains("MeterColdAggregate")
        .contains("watermark=[2026-01-02T00:00:00Z]")
        .contains("partitions=[1 [lastgang_2026_01_02_0000..lastgang_2026_01_02_0000]]")
        .contains("ref(name=\"from\") >= 1767268800000000");
    assertThat(scalar(c, sql)).startsWith("48|");
  }

  @Test
  void anOrderByAcrossTheWatermarkIsSortedByMeterSortInTheOrderAsked() throws Exception {
    String sql =
        "SELECT \"from\", malo_id FROM lastgang WHERE \"from\" >= TIMESTAMP '2026-01-01"
            + " 12:00:00' AND \"from\" < TIMESTAMP '2026-01-02 12:00:00'"
            + " ORDER BY \"from\" DESC, malo_id";
    assertThat(explain(c, sql)).contains("MeterSort(sort0=[$0], sort1=[$1], dir0=[DESC]");
    List<String> rows = new java.util.ArrayList<>();
    try (java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getTimestamp(1).toInstant() + "|" + rs.getString(2));
      }
    }
    assertThat(rows).hasSize(48).doesNotHaveDuplicates();
    List<String> expected = new java.util.ArrayList<>(rows);
    expected.sort(
        java.util.Comparator.<String, String>comparing(r -> r.split("\\|")[0])
            .reversed()
            .thenComparing(r -> r.split("\\|")[1]));
    assertThat(rows).containsExactlyElementsOf(expected);
    // hot rows (from W on) first: the sort reorders what the union delivers cold first
    assertThat(rows.get(0)).startsWith("2026-01-02T11:00:00Z|");
    assertThat(rows.get(47)).startsWith("2026-01-01T12:00:00Z|");
  }

  @Test
  void aRangeBeyondEveryPartitionReadsNothing() throws Exception {
    String sql = "SELECT count(*) FROM lastgang WHERE \"from\" >= TIMESTAMP '2027-01-01 00:00:00'";
    assertThat(explain(c, sql))
        .contains("reads=[nothing now (no hot partition in range)]")
        .contains("reads=[nothing now (range at or above W)]");
    assertThat(scalar(c, sql)).isEqualTo("0");
  }

  @Test
  void anOrOfRangesErrsWider() throws Exception {
    String sql =
        "SELECT count(*) FROM lastgang WHERE \"from\" < TIMESTAMP '2026-01-01 06:00:00' OR"
            + " \"from\" >= TIMESTAMP '2026-01-03 18:00:00'";
    assertThat(explain(c, sql)).contains("MeterHotAggregate").contains("MeterColdAggregate");
    assertThat(scalar(c, sql)).isEqualTo(String.valueOf(2 * 6 + 2 * 6));
  }

  @Test
  void theVersionsRelationPushesEveryFilterAndDoesNotResolve() throws Exception {
    String sql =
        "SELECT count(*) FROM lastgang_versions WHERE \"from\" >= "
            + W
            + " AND quality = 'MEASURED'";
    String plan = explain(c, sql);
    assertThat(plan)
        .contains("MeterHotAggregate(table=[lastgang_versions]")
        .contains("\"quality\" = ?")
        .doesNotContain("ROW_NUMBER");
    assertThat(scalar(c, sql)).isEqualTo("96");
  }

  @Test
  void aPredicateOnAValueColumnActsAfterResolution() throws Exception {
    String sql =
        "SELECT count(*) FROM lastgang WHERE \"from\" >= " + W + " AND quality = 'MEASURED'";
    assertThat(explain(c, sql))
        .containsPattern("WHERE \"_meterstore_rank\" = 1 AND \"quality\" = \\?");
  }
}
