package org.meterstore.query.internal.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.system.PublishedSql.Dialect;

/**
 * The published SQL's shape: columns by name (never the rank), the whole merge key with identity
 * columns and {@code melo_id}, each dialect's quoting, snapshot clause and timestamp literal.
 * Whether engines accept it and reproduce MeterStore's answers is what meterstore-interop-tests
 * checks.
 */
class PublishedSqlTest {
  private static final TableDefinition TABLE =
      TableDefinition.interval("messwerte")
          .withMeloInKey(true)
          .withExtraColumns(List.of(ExtraColumn.identity("register"), ExtraColumn.attribute("rn")));
  private static final Instant W = Instant.parse("2026-10-25T23:00:00Z");

  @Test
  void theRankGroupsByTheWholeMergeKeyAndScopeAndNeverLeaksOrCollides() {
    String sql = PublishedSql.resolution(TABLE, Dialect.STANDARD, List.of("lake", "messwerte"));
    assertThat(sql)
        .contains(
            "PARTITION BY \"malo_id\", \"melo_id\", \"obis_code\", \"from\", \"register\","
                + " \"version_scope\" ORDER BY \"version\" DESC, \"recorded_at\" DESC)"
                + " AS \"_meterstore_rank\"")
        .startsWith("SELECT \"malo_id\", \"melo_id\", \"obis_code\", \"sparte\", \"from\", \"to\",")
        .contains("\"provenance\", \"register\", \"rn\"\nFROM (SELECT \"t\".*, ROW_NUMBER()")
        .contains("FROM \"lake\".\"messwerte\" AS \"t\") AS \"r\"\n")
        .endsWith("WHERE \"_meterstore_rank\" = 1");
  }

  @Test
  void sparkQuotesWithBackticksAndReadsTheSnapshotWithVersionAsOf() {
    String sql =
        PublishedSql.federated(
            TABLE, Dialect.SPARK, "ns", "hot_schema", OptionalLong.of(42), W, List.of());
    assertThat(sql)
        .doesNotContain("\"")
        .containsPattern(
            "FROM `meterstore`.`ns`.`messwerte` VERSION AS OF 42\\s+WHERE `from` < TIMESTAMP"
                + " '2026-10-25 23:00:00.000000Z'\\s+UNION ALL\\s+SELECT `malo_id`")
        .containsPattern(
            "FROM `hot`.`hot_schema`.`messwerte`\\s+WHERE `from` >= TIMESTAMP '2026-10-25"
                + " 23:00:00.000000Z'\\) `t`\\) `r`\\s+WHERE `_meterstore_rank` = 1$");
  }

  @Test
  void trinoReadsTheSnapshotWithForVersionAsOfAndAZonedLiteral() {
    String sql =
        PublishedSql.federated(
            TABLE, Dialect.STANDARD, "ns", "hot_schema", OptionalLong.of(7), W, List.of());
    assertThat(sql)
        .containsPattern(
            "FROM \"meterstore\".\"ns\".\"messwerte\" FOR VERSION AS OF 7\\s+WHERE \"from\" <"
                + " TIMESTAMP '2026-10-25 23:00:00.000000 UTC'")
        .contains("WHERE \"from\" >= TIMESTAMP '2026-10-25 23:00:00.000000 UTC'");
  }

  @Test
  void withoutASnapshotOnlyTheHotBranchRemains() {
    String sql =
        PublishedSql.federated(
            TABLE,
            Dialect.STANDARD,
            "ns",
            "hot_schema",
            OptionalLong.empty(),
            Instant.EPOCH,
            List.of());
    assertThat(sql)
        .doesNotContain("UNION ALL")
        .doesNotContain("\"meterstore\".\"ns\"")
        .containsPattern(
            "FROM \"hot\".\"hot_schema\".\"messwerte\"\\s+WHERE \"from\" >= TIMESTAMP '1970-01-01"
                + " 00:00:00.000000 UTC'");
  }

  /**
   * Table and column names are validated where a table is declared, so a quote, backtick or
   * semicolon never reaches either dialect; the names that are not (the Iceberg namespace and the
   * PostgreSQL schema, from configuration) are quoted and escaped by each engine's dialect.
   */
  @Test
  void aHostileIdentifierIsRejectedOrQuotedByEachEnginesRules() {
    for (String hostile : List.of("x\"y", "x`y", "x;y", "X")) {
      assertThatThrownBy(() -> TableDefinition.interval(hostile))
          .as(hostile)
          .isInstanceOf(MeterStoreException.class);
      assertThatThrownBy(() -> ExtraColumn.identity(hostile))
          .as(hostile)
          .isInstanceOf(MeterStoreException.class);
    }
    String hostile = "n\"s`; DROP TABLE t; --";
    String spark =
        PublishedSql.federated(
            TABLE, Dialect.SPARK, hostile, hostile, OptionalLong.of(1), W, List.of());
    assertThat(spark)
        .contains("`meterstore`.`n\"s``; DROP TABLE t; --`.`messwerte` VERSION AS OF 1")
        .contains("`hot`.`n\"s``; DROP TABLE t; --`.`messwerte`");
    String trino =
        PublishedSql.federated(
            TABLE, Dialect.STANDARD, hostile, hostile, OptionalLong.of(1), W, List.of());
    assertThat(trino)
        .contains("\"meterstore\".\"n\"\"s`; DROP TABLE t; --\".\"messwerte\" FOR VERSION AS OF 1")
        .contains("\"hot\".\"n\"\"s`; DROP TABLE t; --\".\"messwerte\"");
    assertThat(PublishedSql.resolution(TABLE, Dialect.SPARK, List.of("a`b", "c")))
        .contains("FROM `a``b`.`c` `t`");
    assertThat(Dialect.STANDARD.quote("a\"b")).isEqualTo("\"a\"\"b\"");
  }

  @Test
  void namedPartitionsAreReadByNameAndTheParentOnlyOutsideTheirRanges() {
    Instant day = W.plus(java.time.Duration.ofDays(1));
    Instant two = W.plus(java.time.Duration.ofDays(2));
    Instant four = W.plus(java.time.Duration.ofDays(4));
    Instant five = W.plus(java.time.Duration.ofDays(5));
    String sql =
        PublishedSql.federated(
            TABLE,
            Dialect.STANDARD,
            "ns",
            "hot_schema",
            OptionalLong.of(7),
            W,
            List.of(
                new PublishedSql.HotPartition("messwerte_b", day, two),
                new PublishedSql.HotPartition("messwerte_a", W, day),
                new PublishedSql.HotPartition("messwerte_d", four, five)));
    // cold, then each partition in range order, then the parent: one left-deep UNION ALL
    assertThat(sql)
        .containsSubsequence(
            "FOR VERSION AS OF 7",
            "UNION ALL",
            "FROM \"hot\".\"hot_schema\".\"messwerte_a\"",
            "UNION ALL",
            "FROM \"hot\".\"hot_schema\".\"messwerte_b\"",
            "UNION ALL",
            "FROM \"hot\".\"hot_schema\".\"messwerte_d\"",
            "UNION ALL",
            "FROM \"hot\".\"hot_schema\".\"messwerte\"")
        .doesNotContainPattern("UNION ALL\\s*\\(");
    // the parent skips the two contiguous runs [W, W+2d) and [W+4d, W+5d) the partitions cover
    assertThat(sql)
        .contains(
            "FROM \"hot\".\"hot_schema\".\"messwerte\"\n"
                + "          WHERE \"from\" >= TIMESTAMP '2026-10-25 23:00:00.000000 UTC'"
                + " AND NOT (\"from\" >= TIMESTAMP '2026-10-25 23:00:00.000000 UTC'"
                + " AND \"from\" < TIMESTAMP '2026-10-27 23:00:00.000000 UTC')"
                + " AND NOT (\"from\" >= TIMESTAMP '2026-10-29 23:00:00.000000 UTC'"
                + " AND \"from\" < TIMESTAMP '2026-10-30 23:00:00.000000 UTC')");
  }
}
