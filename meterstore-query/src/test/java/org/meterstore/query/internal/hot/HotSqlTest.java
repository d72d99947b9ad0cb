package org.meterstore.query.internal.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.query.internal.exec.Columns;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.predicate.Pred;
import org.meterstore.query.mode.ReadMode;

/**
 * The PostgreSQL text of a hot scan as Calcite's dialect renders it: one line, values bound (never
 * inlined), the resolution group from {@code ResolutionKey}, and identifiers that are validated
 * before the dialect quotes them. What PostgreSQL answers with it is what the hot and routing
 * integration tests check.
 */
class HotSqlTest {
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang")
          .withExtraColumns(List.of(ExtraColumn.identity("register"), ExtraColumn.attribute("rn")));
  private static final Instant W = Instant.parse("2026-01-02T00:00:00Z");
  private static final List<PartitionInfo> PARTITIONS =
      List.of(partition("lastgang_2026_01_02_0000"), partition("lastgang_2026_01_03_0000"));

  private static PartitionInfo partition(String name) {
    return new PartitionInfo("lastgang", name, W, W.plusSeconds(86_400), PartitionState.ATTACHED);
  }

  private static int col(String name) {
    return Columns.indexOf(TABLE, name);
  }

  @Test
  void aResolvedScanRanksWithinTheResolutionGroupAndBindsEveryValue() {
    Pred malo = new Pred.Cmp(col("malo_id"), Pred.Op.EQ, new Pred.Literal("DE0001"));
    Pred quality = new Pred.Cmp(col("quality"), Pred.Op.NE, new Pred.Param(0));
    ScanSpec spec =
        new ScanSpec(
            TABLE,
            ReadMode.current(),
            true,
            List.of(malo, quality),
            new int[] {col("malo_id"), col("value")});

    HotSql sql = HotSql.of(spec, PARTITIONS, "meterstore", W);

    assertThat(sql.sql())
        .doesNotContain("\n")
        .doesNotContain("DE0001")
        .startsWith("SELECT \"malo_id\", \"value\" FROM (SELECT ")
        .contains(
            "ROW_NUMBER() OVER (PARTITION BY \"malo_id\", \"obis_code\", \"from\", \"register\","
                + " \"version_scope\" ORDER BY \"version\" DESC, \"recorded_at\" DESC) AS"
                + " \"_meterstore_rank\"")
        .contains(
            "FROM \"meterstore\".\"lastgang_2026_01_02_0000\" WHERE \"malo_id\" = ? AND \"from\" >= ?"
                + " UNION ALL SELECT ")
        .contains("FROM \"meterstore\".\"lastgang_2026_01_03_0000\" WHERE \"malo_id\" = ?")
        .endsWith("AS \"r\" WHERE \"_meterstore_rank\" = 1 AND \"quality\" <> ?");
    // below resolution in each partition (malo_id, from >= W), then the value predicate above it
    String w = Long.toString(W.toEpochMilli());
    assertThat(sql.sql().chars().filter(c -> c == '?').count()).isEqualTo(5);
    assertThat(sql.bindings())
        .extracting(b -> b.operand().toString())
        .containsExactly("DE0001", w, "DE0001", w, "?0");
  }

  @Test
  void booleanCombinationsKeepTheirMeaning() {
    Pred a = new Pred.Cmp(col("quality"), Pred.Op.EQ, new Pred.Literal("MEASURED"));
    Pred b = new Pred.IsNull(col("to"), false);
    Pred c = new Pred.Cmp(col("unit"), Pred.Op.LT, new Pred.Literal("kWh"));
    Pred p =
        new Pred.Or(List.of(new Pred.And(List.of(a, b)), new Pred.Not(new Pred.Or(List.of(a, c)))));
    ScanSpec spec =
        new ScanSpec(TABLE, ReadMode.current(), false, List.of(p), new int[] {col("value")});

    String sql = HotSql.of(spec, PARTITIONS.subList(0, 1), "meterstore", Instant.MIN).sql();

    // AND binds tighter than OR, and NOT's operand keeps its parentheses
    assertThat(sql)
        .isEqualTo(
            "SELECT \"value\" FROM (SELECT \"value\" FROM"
                + " \"meterstore\".\"lastgang_2026_01_02_0000\" WHERE \"quality\" = ? AND \"to\" IS"
                + " NULL OR NOT (\"quality\" = ? OR \"unit\" < ?)) AS \"h\"");
  }

  /**
   * Calcite renders only two operands of a binary operator's call: conditions are chained two at a
   * time, so none is lost and every placeholder keeps its binding, however many there are.
   */
  @Test
  void everyConditionIsRenderedAndEachPlaceholderHasItsBinding() {
    int from = col("from");
    List<Pred> preds =
        List.of(
            new Pred.Cmp(from, Pred.Op.GE, new Pred.Literal(1L)),
            new Pred.Cmp(from, Pred.Op.LT, new Pred.Literal(2L)),
            new Pred.Cmp(col("malo_id"), Pred.Op.NE, new Pred.Literal("x")));
    ScanSpec spec = new ScanSpec(TABLE, ReadMode.current(), true, preds, new int[] {from});
    HotSql sql = HotSql.of(spec, PARTITIONS, "meterstore", W);
    assertThat(sql.sql())
        .contains("WHERE \"from\" >= ? AND \"from\" < ? AND \"malo_id\" <> ? AND \"from\" >= ?");
    assertThat(sql.sql().chars().filter(c -> c == '?').count())
        .isEqualTo(sql.bindings().size())
        .isEqualTo(8);

    List<Pred> many = new java.util.ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      many.add(new Pred.Cmp(col("malo_id"), Pred.Op.EQ, new Pred.Literal("m" + i)));
    }
    ScanSpec in =
        new ScanSpec(
            TABLE, ReadMode.current(), false, List.of(new Pred.Or(many)), new int[] {from});
    HotSql long_ = HotSql.of(in, PARTITIONS.subList(0, 1), "meterstore", W);
    assertThat(long_.sql().chars().filter(c -> c == '?').count())
        .isEqualTo(long_.bindings().size())
        .isEqualTo(5001);
  }

  @Test
  void aHostileIdentifierIsRejectedBeforePostgresqlSeesIt() {
    ScanSpec spec =
        new ScanSpec(TABLE, ReadMode.current(), false, List.of(), new int[] {col("value")});
    for (String hostile : List.of("x\"; DROP TABLE t; --", "x`y", "x;y", "X")) {
      assertThatThrownBy(() -> HotSql.of(spec, List.of(partition(hostile)), "meterstore", W))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("Invalid identifier");
      assertThatThrownBy(() -> HotSql.of(spec, PARTITIONS, hostile, W))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> ExtraColumn.attribute(hostile))
          .as(hostile)
          .isInstanceOf(MeterStoreException.class);
      assertThatThrownBy(() -> TableDefinition.interval(hostile))
          .as(hostile)
          .isInstanceOf(MeterStoreException.class);
    }
    // were one to get through, PostgreSQL's dialect would still quote it exactly
    assertThat(PostgresqlSqlDialect.DEFAULT.quoteIdentifier("x\"; DROP TABLE t; --"))
        .isEqualTo("\"x\"\"; DROP TABLE t; --\"");
  }
}
