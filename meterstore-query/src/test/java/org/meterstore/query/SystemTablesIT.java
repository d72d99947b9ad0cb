package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.hourly;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The {@code system} relations: their columns, computed only by {@code refreshSystemTables(now)}
 * (or per connection with {@code meterstore.system_at}), and {@code healthy} for a fresh table, an
 * exhausted runway, stranded rows and a store that cannot enumerate its partitions.
 */
@ExtendWith(PostgresExtension.class)
class SystemTablesIT {
  private static final String TABLES =
      "SELECT \"table\", watermark, watermark_lag_seconds, hot_partitions, partitions_ahead,"
          + " invariant_violations, healthy FROM \"system\".\"tables\" ORDER BY \"table\"";

  @TempDir Path warehouse;

  @Test
  void statusCoversFreshExhaustedAndStrandedTables(TestDatabase db) throws Exception {
    TableDefinition fresh = TableDefinition.interval("fresh");
    TableDefinition exhausted = TableDefinition.interval("exhausted");
    TableDefinition stranded = TableDefinition.interval("stranded");
    Instant now = Instant.parse("2026-01-05T00:00:00Z");
    try (QueryFixture d =
        new QueryFixture(db, warehouse, now, List.of(fresh, exhausted, stranded))) {
      d.hot.write(exhausted, hourly(1, DAY1, DAY2, "20260105000000"), now);
      d.hot.write(stranded, hourly(2, DAY1, DAY3, "20260105000000"), now);
      d.hot.partitions().ensureHeadroom(stranded, now);
      d.coldTable(stranded)
          .archive(
              new ArchiveRequest(DAY1, DAY2, now, 1),
              d.rowsOf(stranded, "stranded_2026_01_01_0000"));
      try (Connection c = d.catalog.connection()) {
        assertThatThrownBy(() -> Fixtures.query(c, TABLES))
            .hasMessageContaining("meterstore.system_at=now");
        d.catalog.refreshSystemTables(now);
        assertThat(Fixtures.query(c, TABLES))
            .containsExactly(
                "exhausted|1970-01-01T00:00:00Z|1767571200|1|0|0|false|",
                "fresh|1970-01-01T00:00:00Z|1767571200|0|0|0|true|",
                "stranded|2026-01-02T00:00:00Z|259200|16|14|48|false|");
        assertThat(
                Fixtures.query(
                    c,
                    "SELECT \"value\" FROM \"system\".config WHERE \"table\" = 'fresh' AND setting = 'merge_key'"))
            .containsExactly("malo_id, obis_code, from|");
        assertThat(
                Fixtures.query(
                    c,
                    "SELECT \"value\" FROM \"system\".resolution WHERE \"table\" = 'stranded'"
                        + " AND setting = 'resolution_sql'"))
            .singleElement()
            .asString()
            .contains(
                "ROW_NUMBER() OVER (PARTITION BY \"malo_id\", \"obis_code\", \"from\", \"version_scope\" ORDER BY \"version\" DESC, \"recorded_at\" DESC)")
            .contains("FROM \"meterstore\".\"meterstore\".\"stranded\" AS \"t\"")
            .startsWith("SELECT \"malo_id\", \"melo_id\", ")
            .endsWith(") AS \"r\"\nWHERE \"_meterstore_rank\" = 1|");
        long snapshot = d.coldTable(stranded).icebergTable().currentSnapshot().snapshotId();
        assertThat(
                Fixtures.query(
                    c,
                    "SELECT \"table\", snapshot_id, watermark, cold_table, hot_table FROM"
                        + " \"system\".seam ORDER BY \"table\""))
            .containsExactly(
                "exhausted|null|1970-01-01T00:00:00Z|meterstore.exhausted|meterstore.exhausted|",
                "fresh|null|1970-01-01T00:00:00Z|meterstore.fresh|meterstore.fresh|",
                "stranded|"
                    + snapshot
                    + "|2026-01-02T00:00:00Z|meterstore.stranded|meterstore.stranded|");
        assertThat(
                Fixtures.query(
                    c, "SELECT spark_sql FROM \"system\".seam WHERE \"table\" = 'stranded'"))
            .singleElement()
            .asString()
            .containsPattern(
                "FROM `meterstore`.`meterstore`.`stranded` VERSION AS OF "
                    + snapshot
                    + "\\s+WHERE `from` < TIMESTAMP '2026-01-02 00:00:00.000000Z'")
            .containsPattern("UNION ALL\\s+SELECT `malo_id`, `melo_id`, ")
            .containsPattern(
                "FROM `hot`.`meterstore`.`stranded`\\s+WHERE `from` >= TIMESTAMP '2026-01-02"
                    + " 00:00:00.000000Z'")
            .contains("ORDER BY `version` DESC, `recorded_at` DESC) `_meterstore_rank`");
        assertThat(
                Fixtures.query(
                    c, "SELECT trino_sql FROM \"system\".seam WHERE \"table\" = 'stranded'"))
            .singleElement()
            .asString()
            .containsPattern(
                "FROM \"meterstore\".\"meterstore\".\"stranded\" FOR VERSION AS OF "
                    + snapshot
                    + "\\s+WHERE \"from\" < TIMESTAMP '2026-01-02 00:00:00.000000 UTC'")
            .containsPattern("FROM \"hot\".\"meterstore\".\"stranded\"\\s+WHERE \"from\" >= ");
        assertThat(
                Fixtures.query(
                    c, "SELECT trino_sql FROM \"system\".seam WHERE \"table\" = 'fresh'"))
            .as("nothing archived: the hot branch alone")
            .singleElement()
            .asString()
            .doesNotContain("UNION ALL")
            .doesNotContain("VERSION AS OF")
            .containsPattern(
                "FROM \"hot\".\"meterstore\".\"fresh\"\\s+WHERE \"from\" >= TIMESTAMP '1970-01-01");
        assertThat(
                Fixtures.query(
                    c,
                    "SELECT \"value\" FROM \"system\".resolution WHERE setting ="
                        + " 'balancing_day_column' AND \"table\" = 'fresh'"))
            .containsExactly("balancing_day|");
        assertThat(
                Fixtures.query(
                    c, "SELECT \"table\", watermark, \"rows\", tags FROM \"system\".snapshots"))
            .containsExactly("stranded|2026-01-02T00:00:00Z|48||");
      }
    }
  }

  @Test
  void aStoreThatCannotEnumerateItsPartitionsIsNotHealthy(TestDatabase db) throws Exception {
    TableDefinition def = TableDefinition.interval("lastgang");
    Instant now = Instant.parse("2026-01-05T00:00:00Z");
    try (QueryFixture d = new QueryFixture(db, warehouse, now, List.of(def))) {
      PGSimpleDataSource broken = new PGSimpleDataSource();
      broken.setUrl(db.jdbcUrl() + "_does_not_exist");
      broken.setUser(db.user());
      broken.setPassword(db.password());
      HotStore unreachable = HotStore.open(broken, HotSettings.DEFAULTS, OpenTelemetry.noop());
      QueryEngine catalog =
          QueryEngine.builder()
              .tables(List.of(def))
              .hot(unreachable, broken)
              .cold(d.cold)
              .clock(d.clock)
              .build();
      catalog.refreshSystemTables(now);
      try (Connection c = catalog.connection()) {
        assertThat(Fixtures.query(c, TABLES))
            .containsExactly("lastgang|1970-01-01T00:00:00Z|1767571200|-1|-1|-1|false|");
      }
    }
  }
}
