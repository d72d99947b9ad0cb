package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.hourly;
import static org.meterstore.query.Fixtures.reading;
import static org.meterstore.query.Fixtures.scalar;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Each read mode, per connection (JDBC properties) and per statement (table functions). Day 1 is
 * archived and settled (snapshot tagged), then a late correction of one archived reading and a hot
 * correction arrive; the as-of modes reproduce the settlement computed before.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReadModesIT {
  private static final TableDefinition DEF = TableDefinition.interval("lastgang");
  private static final String ORIGINAL = "20260105000000";
  private static final String CORRECTION = "20260110000000";
  private static final String SETTLEMENT = "SELECT sum(\"value\") FROM ";
  private static final Instant HOT_HOUR = DAY2.plus(Duration.ofHours(5));

  @TempDir static Path warehouse;
  private QueryFixture d;
  private long settledSnapshot;
  private long correctedSnapshot;
  private String settledSum;
  private Instant beforeCorrections;

  @BeforeAll
  void setUp(TestDatabase db) throws Exception {
    d = new QueryFixture(db, warehouse, Instant.parse("2026-02-01T00:00:00Z"), List.of(DEF));
    d.hot.write(DEF, hourly(2, DAY1, DAY4, ORIGINAL), d.clock.instant());
    d.archive(DEF, DAY1, DAY2, true);
    settledSnapshot = d.coldTable(DEF).tagSnapshot("settlement-2026-01-01");
    try (Connection c = d.catalog.connection()) {
      settledSum =
          scalar(c, SETTLEMENT + "lastgang WHERE \"from\" < TIMESTAMP '2026-01-02 00:00:00'");
    }
    beforeCorrections = d.clock.instant();
    d.clock.advance(Duration.ofDays(1));
    Instant now = d.clock.instant();
    correctedSnapshot =
        d.coldTable(DEF)
            .appendCorrections(
                List.of(StoredReading.accept(reading(1, DAY1, "100", CORRECTION), now)), now)
            .snapshotId();
    d.hot.write(DEF, List.of(reading(1, HOT_HOUR, "200", CORRECTION)), now);
  }

  @AfterAll
  void tearDown() {
    d.close();
  }

  private String query(Properties info, String sql) throws SQLException {
    try (Connection c = d.catalog.connection(info)) {
      return scalar(c, sql);
    }
  }

  private String query(String sql) throws SQLException {
    return query(new Properties(), sql);
  }

  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void currentSeesBothCorrections() throws Exception {
    assertThat(
            query(
                "SELECT \"value\" FROM lastgang WHERE malo_id = '"
                    + malo1()
                    + "' AND \"from\" = TIMESTAMP '2026-01-01 00:00:00'"))
        .isEqualTo("100");
    assertThat(
            query(
                "SELECT \"value\" FROM lastgang WHERE malo_id = '"
                    + malo1()
                    + "' AND \"from\" = TIMESTAMP '2026-01-02 05:00:00'"))
        .isEqualTo("200");
    assertThat(query(SETTLEMENT + "lastgang WHERE \"from\" < TIMESTAMP '2026-01-02 00:00:00'"))
        .isNotEqualTo(settledSum);
  }

  @Test
  void asOfTheSettledSnapshotReproducesTheSettlement() throws Exception {
    assertThat(query(SETTLEMENT + "TABLE(as_of_snapshot('lastgang', " + settledSnapshot + "))"))
        .isEqualTo(settledSum);
    assertThat(
            query(
                props(
                    QueryProperties.MODE,
                    "as_of_snapshot",
                    QueryProperties.SNAPSHOT_ID,
                    "" + settledSnapshot),
                SETTLEMENT + "lastgang"))
        .isEqualTo(settledSum);
    assertThat(query(SETTLEMENT + "TABLE(as_of_tag('lastgang', 'settlement-2026-01-01'))"))
        .isEqualTo(settledSum);
    SnapshotInfo settled =
        d.coldTable(DEF).snapshots().stream()
            .filter(s -> s.snapshotId() == settledSnapshot)
            .findFirst()
            .orElseThrow();
    assertThat(query(SETTLEMENT + "TABLE(as_of_time('lastgang', '" + settled.committedAt() + "'))"))
        .isEqualTo(settledSum);
  }

  @Test
  void aVersionCeilingOnTheCorrectedSnapshotReproducesTheSettlement() throws Exception {
    String corrected = SETTLEMENT + "TABLE(as_of_snapshot('lastgang', " + correctedSnapshot + "))";
    assertThat(query(corrected)).isNotEqualTo(settledSum);
    assertThat(
            query(
                SETTLEMENT
                    + "TABLE(as_of_snapshot('lastgang', "
                    + correctedSnapshot
                    + ", '"
                    + ORIGINAL
                    + "'))"))
        .isEqualTo(settledSum);
    assertThat(
            query(
                props(
                    QueryProperties.MODE,
                    "as_of_snapshot",
                    QueryProperties.SNAPSHOT_ID,
                    "" + correctedSnapshot,
                    QueryProperties.VERSION_CEILING,
                    ORIGINAL),
                SETTLEMENT + "lastgang"))
        .isEqualTo(settledSum);
  }

  @Test
  void knownAtIgnoresVersionsRecordedLaterInBothTiers() throws Exception {
    String sql =
        "SELECT \"value\" FROM TABLE(known_at('lastgang', '"
            + beforeCorrections
            + "')) WHERE malo_id = '"
            + malo1()
            + "' AND (\"from\" = TIMESTAMP '2026-01-01 00:00:00' OR \"from\" = TIMESTAMP '2026-01-02 05:00:00')";
    try (Connection c = d.catalog.connection()) {
      assertThat(Fixtures.query(c, sql))
          .containsExactlyInAnyOrder(original(DAY1), original(HOT_HOUR));
    }
    assertThat(
            query(
                props(
                    QueryProperties.MODE,
                    "known_at",
                    QueryProperties.INSTANT,
                    beforeCorrections.toString()),
                "SELECT count(*) FROM lastgang WHERE \"value\" >= 100"))
        .isEqualTo("0");
  }

  @Test
  void historicalReadsTheColdTierAndOperationalTheHotTier() throws Exception {
    assertThat(query(props(QueryProperties.MODE, "historical"), "SELECT count(*) FROM lastgang"))
        .isEqualTo("48");
    assertThat(query("SELECT count(*) FROM TABLE(operational('lastgang'))")).isEqualTo("96");
    assertThat(query("SELECT count(*) FROM TABLE(historical('lastgang_versions'))"))
        .isEqualTo("49");
    try (Connection c = d.catalog.connection(props(QueryProperties.MODE, "historical"))) {
      assertThat(Fixtures.explain(c, "SELECT * FROM lastgang"))
          .contains("MeterColdScan")
          .doesNotContain("MeterHotScan");
    }
  }

  @Test
  void anUnknownSnapshotOrTagFailsNamingIt() {
    assertThatThrownBy(() -> query(SETTLEMENT + "TABLE(as_of_snapshot('lastgang', 123456789))"))
        .hasMessageContaining("snapshot 123456789")
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> query(SETTLEMENT + "TABLE(as_of_tag('lastgang', 'nope'))"))
        .hasMessageContaining("tag nope");
    assertThatThrownBy(
            () -> query(SETTLEMENT + "TABLE(as_of_time('lastgang', '2000-01-01T00:00:00Z'))"))
        .hasMessageContaining("2000-01-01T00:00:00Z");
    assertThatThrownBy(() -> d.catalog.connection(props(QueryProperties.MODE, "as_of_snapshot")))
        .hasMessageContaining(QueryProperties.SNAPSHOT_ID);
  }

  /** The value {@link Fixtures#hourly} gave meter 1 at {@code from}. */
  private static String original(Instant from) {
    return "1." + (from.getEpochSecond() / 3600 % 10) + "|";
  }

  private static String malo1() {
    return org.meterstore.testing.workload.Workload.malo(1);
  }
}
