package org.meterstore.query.internal.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
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
    String sql = PublishedSql.resolution(TABLE, Dialect.STANDARD, "\"lake\".\"messwerte\"");
    assertThat(sql)
        .contains(
            "PARTITION BY \"malo_id\", \"melo_id\", \"obis_code\", \"from\", \"register\","
                + " \"version_scope\" ORDER BY \"version\" DESC, \"recorded_at\" DESC)"
                + " AS \"_meterstore_rank\"")
        .startsWith("SELECT \"malo_id\", \"melo_id\", \"obis_code\", \"sparte\", \"from\", \"to\",")
        .contains("\"provenance\", \"register\", \"rn\" FROM (")
        .contains("FROM \"lake\".\"messwerte\" t\n")
        .endsWith(") r WHERE \"_meterstore_rank\" = 1");
  }

  @Test
  void sparkQuotesWithBackticksAndReadsTheSnapshotWithVersionAsOf() {
    String sql =
        PublishedSql.federated(TABLE, Dialect.SPARK, "ns", "hot_schema", OptionalLong.of(42), W);
    assertThat(sql)
        .doesNotContain("\"")
        .contains(
            "FROM `meterstore`.`ns`.`messwerte` VERSION AS OF 42 WHERE `from` < TIMESTAMP"
                + " '2026-10-25 23:00:00.000000Z'\n    UNION ALL\n")
        .contains(
            "FROM `hot`.`hot_schema`.`messwerte` WHERE `from` >= TIMESTAMP '2026-10-25"
                + " 23:00:00.000000Z'\n  ) t\n) r WHERE `_meterstore_rank` = 1");
  }

  @Test
  void trinoReadsTheSnapshotWithForVersionAsOfAndAZonedLiteral() {
    String sql =
        PublishedSql.federated(TABLE, Dialect.STANDARD, "ns", "hot_schema", OptionalLong.of(7), W);
    assertThat(sql)
        .contains(
            "FROM \"meterstore\".\"ns\".\"messwerte\" FOR VERSION AS OF 7 WHERE \"from\" <"
                + " TIMESTAMP '2026-10-25 23:00:00.000000 UTC'")
        .contains("WHERE \"from\" >= TIMESTAMP '2026-10-25 23:00:00.000000 UTC'");
  }

  @Test
  void withoutASnapshotOnlyTheHotBranchRemains() {
    String sql =
        PublishedSql.federated(
            TABLE, Dialect.STANDARD, "ns", "hot_schema", OptionalLong.empty(), Instant.EPOCH);
    assertThat(sql)
        .doesNotContain("UNION ALL")
        .doesNotContain("\"meterstore\".\"ns\"")
        .contains(
            "FROM \"hot\".\"hot_schema\".\"messwerte\" WHERE \"from\" >= TIMESTAMP '1970-01-01"
                + " 00:00:00.000000 UTC'");
  }
}
