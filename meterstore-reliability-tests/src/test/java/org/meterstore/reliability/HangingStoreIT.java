package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.opentelemetry.api.OpenTelemetry;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.Tiers;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.ColdTimeouts;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.hot.HotSettings;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.ObjectStoreFront;
import org.meterstore.testing.ObjectStoreServer;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object store accepts connections, reads each request and never answers (issue #36). Real
 * PostgreSQL, a real Iceberg JDBC catalog, real Parquet files on an S3-compatible server (MinIO
 * where Docker answers, s3proxy here) behind an {@link ObjectStoreFront}, and the {@code S3FileIO}
 * MeterStore builds from {@link ColdTimeouts}. Promise checked: every call gives up within {@code
 * call_timeout}, so a query fails retryably within about that bound and an archival run reports its
 * failure within a few bounds, releases its lease and leaves nothing a later cycle cannot finish;
 * once the store answers, the next cycle archives the window once and every answer equals the
 * reference model.
 */
@ExtendWith(PostgresExtension.class)
class HangingStoreIT {
  private static final Logger LOG = LoggerFactory.getLogger(HangingStoreIT.class);
  private static final Instant MAR1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant MAR5 = Instant.parse("2026-03-05T00:00:00Z");
  private static final Instant LOADED = Instant.parse("2026-03-06T00:00:00Z");
  private static final int METERS = 3;
  private static final String BUCKET = "hanging";

  /**
   * The call bound under test. The idle timeout is as long, so without the bound one hung call
   * would take all three attempts: 3 × 2 s plus the pauses, over 6 s.
   */
  private static final Duration CALL = Duration.ofSeconds(2);

  private static final ColdTimeouts TIMEOUTS =
      new ColdTimeouts(Duration.ofSeconds(1), CALL, 3, CALL);

  /**
   * A query makes one call that hangs; planning and the JDBC layer get the rest (without the bound
   * it took over 6 s).
   */
  private static final Duration QUERY_BOUND = CALL.multipliedBy(3).dividedBy(2);

  /** What an archival run may spend beside its unanswered calls (PostgreSQL, planning, Parquet). */
  private static final Duration MARGIN = Duration.ofSeconds(2);

  private static ObjectStoreServer server;
  private ObjectStoreFront front;
  private OutageDeployment d;

  @BeforeAll
  static void startStore() {
    server = ObjectStoreServer.start("meterstore", "s3-secret-value");
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopStore() {
    server.close();
  }

  @AfterEach
  void close() throws Exception {
    if (d != null) {
      d.close();
    }
    if (front != null) {
      front.close();
    }
  }

  /** Five days of three meters behind a passing front, the first two archived: W = Mar 3. */
  private TableDefinition deployment(TestDatabase db, String name) throws Exception {
    front = ObjectStoreFront.before(server.endpoint());
    S3Settings s3 =
        S3Settings.pathStyle(
            front.endpoint(), ObjectStoreServer.REGION, server.accessKey(), server.secretKey());
    ColdConfig cold =
        ColdConfig.jdbc(db.jdbcUrl(), db.user(), db.password(), "s3://" + BUCKET + "/" + name)
            .withS3(s3)
            .withTimeouts(TIMEOUTS);
    TableDefinition t = OutageDeployment.table(name);
    d = new OutageDeployment(db.jdbcUrl(), db.user(), db.password(), cold, List.of(t), MAR1);
    d.load(t, METERS, MAR1, 5, LOADED);
    assertThat(cycle().runOnce(MAR4).row(name).orElseThrow().status())
        .isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(cycle().runOnce(MAR4.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    assertThat(server.keys(BUCKET))
        .anyMatch(k -> k.startsWith(name + "/") && k.endsWith(".parquet"));
    d.assertQueriesEqualModel(t);
    return t;
  }

  private MaintenanceBuilder cycle() {
    return d.catalog.maintenance().maxWindowsPerCycle(8).sourceChunkRows(100);
  }

  @Test
  void aQueryOverColdDataFailsRetryablyWithinTheCallBound(TestDatabase db) throws Exception {
    TableDefinition t = deployment(db, "haengt_abfrage");
    String spanning = "SELECT count(*) FROM " + t.name();

    // mid-query: planned while the store answers, it hangs at the first data file read
    front.hangAt(line -> line.startsWith("GET ") && line.contains("/data/"));
    Duration midQuery = assertFailsWithinBound(() -> d.count(spanning), t.name());
    assertThat(front.hungRequests()).as("the store hung mid-query").isPositive();

    // then hung from the start: the next statement meets it wherever it first asks the store
    Duration hung = assertFailsWithinBound(() -> d.count(spanning), t.name());
    LOG.info(
        "A query gave up after {} (store hung mid-query) and {} (hung throughout)", midQuery, hung);

    front.pass();
    d.assertQueriesEqualModel(t);
  }

  /**
   * {@code data}: the store hangs at the first Parquet file the archival uploads; {@code manifest}:
   * at its first manifest (the commit's metadata); {@code table-metadata}: at the new table
   * metadata file, the last upload before the catalog's pointer moves.
   */
  @ParameterizedTest(name = "the store hangs at: {0}")
  @ValueSource(strings = {"data", "manifest", "table-metadata"})
  void archivalGivesUpReleasesItsLeaseAndTheNextCycleArchivesTheWindowOnce(
      String at, TestDatabase db) throws Exception {
    TableDefinition t = deployment(db, "haengt_" + at.replace('-', '_'));
    int snapshotsBefore = Tiers.coldTable(d.catalog, t.name()).snapshots().size();
    front.hangAt(uploadOf(at));

    long started = System.nanoTime();
    TableOutcome failed = cycle().runOnce(MAR5).row(t.name()).orElseThrow();
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    LOG.info("An archival run (store hung at {}) gave up after {}", at, took);

    assertThat(front.hanging()).as("the store hung during the run").isTrue();
    assertThat(failed.status()).isEqualTo(TableOutcome.Status.FAILED);
    assertThat(failed.failure())
        .get()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
              assertThat(e.getMessage()).startsWith("Cannot ").contains(t.name());
            });
    // each unanswered call costs one bound: the hung upload, and for a commit the delete of the
    // window's uncommitted data files (without the bound: 6.7 s and 13 s, three attempts each)
    int unanswered = front.hungRequests();
    assertThat(unanswered).isBetween(1, at.equals("data") ? 1 : 2);
    assertThat(took).isLessThan(CALL.multipliedBy(unanswered).plus(MARGIN));
    assertThat(leaseTakenAtOnceByAnotherProcess(db, t))
        .as("the failed run released its lease")
        .isTrue();

    front.pass();
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    assertThat(Tiers.coldTable(d.catalog, t.name()).snapshots()).hasSize(snapshotsBefore);
    assertThat(partitionStateAt(t, MAR3)).isEqualTo(PartitionState.DETACHED);
    d.assertQueriesEqualModel(t);

    TableOutcome recovered = cycle().runOnce(MAR5).row(t.name()).orElseThrow();

    assertThat(recovered.status()).isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(recovered.counts().windowsArchived()).isEqualTo(1);
    assertThat(recovered.counts().rowsArchived()).isEqualTo(96L * METERS);
    assertThat(d.watermark(t)).isEqualTo(MAR4);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
    assertThat(cycle().runOnce(MAR5.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(MAR4));
    d.assertQueriesEqualModel(t);
  }

  private static Predicate<String> uploadOf(String at) {
    return switch (at) {
      case "data" -> line -> line.startsWith("PUT ") && line.contains("/data/");
      case "manifest" -> line -> line.startsWith("PUT ") && line.endsWith("-m0.avro");
      case "table-metadata" -> line -> line.startsWith("PUT ") && line.endsWith(".metadata.json");
      default -> throw new IllegalArgumentException(at);
    };
  }

  /**
   * Whether a session of another pool — another process, as far as PostgreSQL can tell — takes the
   * table's archival lease at once, and gives it back.
   */
  private static boolean leaseTakenAtOnceByAnotherProcess(TestDatabase db, TableDefinition t) {
    try (HikariDataSource pool = OutageDeployment.pool(db.jdbcUrl(), db.user(), db.password());
        HotStore other = HotStore.open(pool, HotSettings.DEFAULTS, OpenTelemetry.noop())) {
      Optional<ArchivalLease> lease = other.archival().tryLease(t, "another-process", MAR5);
      lease.ifPresent(ArchivalLease::close);
      return lease.isPresent();
    }
  }

  private PartitionState partitionStateAt(TableDefinition t, Instant lower) {
    return d.hot.partitions().list(t).stream()
        .filter(p -> p.lowerBound().equals(lower))
        .findFirst()
        .orElseThrow()
        .state();
  }

  private static Duration assertFailsWithinBound(ThrowingCallable query, String table) {
    long started = System.nanoTime();
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
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(took).isLessThan(QUERY_BOUND);
    return took;
  }
}
