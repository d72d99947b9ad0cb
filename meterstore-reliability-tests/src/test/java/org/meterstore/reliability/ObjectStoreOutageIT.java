package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.reliability.OutageDeployment.reading;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.Tiers;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The object store becomes unreachable mid-commit, mid-query and during a late correction, then
 * comes back. Promise checked: degrade, don't lie. Archival fails fast and retryably with W, the
 * detached partition and the cold table untouched, and the next cycle archives the window exactly
 * once; a query that needs the cold tier fails with a retryable {@link SQLTransientException} and
 * never answers from the hot half, while a query provably within the hot tier (and operational
 * mode) still answers; a late correction writes nothing in either tier until the store is back.
 * After recovery every query equals the reference model.
 */
@ExtendWith(PostgresExtension.class)
class ObjectStoreOutageIT {
  private static final Instant MAR1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant MAR5 = Instant.parse("2026-03-05T00:00:00Z");
  private static final Instant LOADED = Instant.parse("2026-03-06T00:00:00Z");
  private static final int METERS = 3;

  /** An outage must be reported within this, not after minutes of retries (issue #22). */
  private static final Duration BOUND = Duration.ofSeconds(15);

  @TempDir Path warehouse;
  private OutageDeployment d;

  @AfterEach
  void close() {
    if (d != null) {
      d.power.up();
      d.close();
    }
  }

  /**
   * Five days of three meters, the first two archived and reclaimed: W = Mar 3, the hot tier holds
   * Mar 3 to Mar 5.
   */
  private TableDefinition deployment(TestDatabase db, String name) throws Exception {
    TableDefinition t = OutageDeployment.table(name);
    d =
        new OutageDeployment(
            db.jdbcUrl(),
            db.user(),
            db.password(),
            warehouse,
            List.of(t),
            ObjectStoreSwitch.named(name),
            MAR1);
    d.load(t, METERS, MAR1, 5, LOADED);
    assertThat(cycle().runOnce(MAR4).row(name).orElseThrow().status())
        .isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(cycle().runOnce(MAR4.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    d.assertQueriesEqualModel(t);
    return t;
  }

  private MaintenanceBuilder cycle() {
    return d.catalog.maintenance().maxWindowsPerCycle(8).sourceChunkRows(100);
  }

  /**
   * {@code data}: the store goes away at the first Parquet file the archival writes; {@code
   * metadata}: at its first manifest (the commit); {@code gone}: it is unreachable before the cycle
   * starts, so the run's first table load meets it.
   */
  @ParameterizedTest(name = "the store goes away: {0}")
  @ValueSource(strings = {"data", "metadata", "gone"})
  void archivalFailsRetryablyKeepsTheWindowAndTheNextCycleArchivesItOnce(
      String kind, TestDatabase db) throws Exception {
    TableDefinition t = deployment(db, "archiv_" + kind);
    String segment = "/" + kind + "/";
    if (kind.equals("gone")) {
      d.power.down();
    } else {
      d.power.onEachOperation(
          (op, path) -> {
            if (op == ObjectStoreSwitch.Op.WRITE && path.contains(segment)) {
              d.power.down();
            }
          });
    }
    Instant now = MAR5; // exactly one window due: Mar 3

    long started = System.nanoTime();
    TableOutcome failed = cycle().runOnce(now).row(t.name()).orElseThrow();
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(d.power.isUp()).as("the outage happened").isFalse();
    assertThat(took).isLessThan(BOUND);
    assertThat(failed.status()).isEqualTo(TableOutcome.Status.FAILED);
    assertThat(failed.failure())
        .get()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
              assertThat(e.getMessage()).startsWith("Cannot ").contains(t.name());
            });
    d.power.up();
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    PartitionInfo window = partitionAt(t, MAR3);
    // a run that met the outage before detaching leaves the partition attached; either way, kept
    assertThat(window.state())
        .isEqualTo(kind.equals("gone") ? PartitionState.ATTACHED : PartitionState.DETACHED);
    assertThat(d.count("SELECT count(*) FROM " + t.name() + "_versions"))
        .isEqualTo(d.model(t).versions().size());
    assertThat(rowsIn(db, window)).isEqualTo(96L * METERS);

    TableOutcome recovered = cycle().runOnce(now).row(t.name()).orElseThrow();

    assertThat(recovered.status()).isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(recovered.counts().windowsArchived()).isEqualTo(1);
    assertThat(recovered.counts().rowsArchived()).isEqualTo(96L * METERS);
    assertThat(d.watermark(t)).isEqualTo(MAR4);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
    assertThat(cycle().runOnce(now.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(MAR4));
    d.assertQueriesEqualModel(t);
  }

  @Test
  void aQueryNeedingTheColdTierFailsLoudlyAndNeverAnswersFromTheHotHalf(TestDatabase db)
      throws Exception {
    TableDefinition t = deployment(db, "abfrage");
    String name = t.name();
    String hotHalf =
        "SELECT count(*) FROM " + name + " WHERE \"from\" >= TIMESTAMP '2026-03-03 00:00:00'";
    long hotRows = d.count(hotHalf);
    assertThat(hotRows).as("the hot half exists").isEqualTo(3L * 96 * METERS);
    List<String> spanning =
        List.of(
            "SELECT count(*) FROM " + name,
            "SELECT count(*) FROM " + name + " WHERE \"from\" < TIMESTAMP '2026-03-04 00:00:00'",
            "SELECT count(*) FROM " + name + "_versions",
            "SELECT max(\"value\") FROM "
                + name
                + " WHERE \"from\" < TIMESTAMP '2026-03-02 00:00:00'");

    // mid-query: planned with the store up, it goes away when the first data file is read
    d.power.onEachOperation(
        (op, path) -> {
          if (op == ObjectStoreSwitch.Op.READ && path.contains("/data/")) {
            d.power.down();
          }
        });
    assertFailsLoudly(() -> d.count(spanning.get(0)), name);
    assertThat(d.power.isUp()).as("the outage happened mid-query").isFalse();

    // then wholly unreachable: every statement needing the cold tier fails, before or during
    for (String sql : spanning) {
      assertFailsLoudly(() -> d.count(sql), name);
    }
    assertThat(d.count(hotHalf)).isEqualTo(hotRows);
    assertThat(
            d.count(
                "SELECT count(*) FROM "
                    + name
                    + " WHERE \"from\" >= TIMESTAMP '2026-03-04 00:00:00'"))
        .isEqualTo(2L * 96 * METERS);
    Properties operational = new Properties();
    operational.setProperty(QueryProperties.MODE, "operational");
    try (Connection c = d.catalog.connection(operational);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + name)) {
      rs.next();
      assertThat(rs.getLong(1)).isEqualTo(hotRows);
    }

    d.power.up();
    d.assertQueriesEqualModel(t);
    assertThat(d.count(spanning.get(1))).isEqualTo(3L * 96 * METERS);
  }

  @Test
  void aLateCorrectionWhileTheStoreIsDownWritesNothingAndSucceedsWhenRetried(TestDatabase db)
      throws Exception {
    TableDefinition t = deployment(db, "korrektur");
    Instant at = LOADED.plus(Duration.ofHours(1));
    List<Reading> batch =
        List.of(
            reading(1, MAR2.plus(Duration.ofHours(10)), "9.999999", 2), // below W: cold
            reading(2, MAR4.plus(Duration.ofHours(10)), "8.888888", 2)); // hot
    long hotRowsBefore = hotRows(db, t);
    int snapshotsBefore = Tiers.coldTable(d.catalog, t.name()).snapshots().size();
    d.power.down();

    long started = System.nanoTime();
    assertThatThrownBy(() -> d.catalog.table(t.name()).append(batch, at))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
            })
        .hasMessageContaining(t.name());
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
    assertThat(hotRows(db, t)).as("nothing written hot").isEqualTo(hotRowsBefore);

    d.power.up();
    assertThat(Tiers.coldTable(d.catalog, t.name()).snapshots()).hasSize(snapshotsBefore);
    d.assertQueriesEqualModel(t); // the model never saw the batch

    WriteResult r = d.append(t, batch, at);

    assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED, WriteOutcome.SUPERSEDED);
    assertThat(r.tiers()).containsExactly(Tier.COLD, Tier.HOT);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    d.assertQueriesEqualModel(t);
    d.assertTieringHolds(t);
  }

  private static void assertFailsLoudly(ThrowingCallable query, String table) {
    assertThatThrownBy(query)
        .isInstanceOf(SQLTransientException.class)
        .hasMessageContaining(table)
        .cause()
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
            });
  }

  private PartitionInfo partitionAt(TableDefinition t, Instant lower) {
    return d.hot.partitions().list(t).stream()
        .filter(p -> p.lowerBound().equals(lower))
        .findFirst()
        .orElseThrow();
  }

  private static long rowsIn(TestDatabase db, PartitionInfo p) throws Exception {
    return scalar(db, "SELECT count(*) FROM meterstore.\"" + p.name() + "\"");
  }

  /** Every row stored in the hot tier, attached or detached. */
  private long hotRows(TestDatabase db, TableDefinition t) throws Exception {
    long n = 0;
    for (PartitionInfo p : d.hot.partitions().list(t)) {
      n += rowsIn(db, p);
    }
    return n;
  }

  private static long scalar(TestDatabase db, String sql) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
