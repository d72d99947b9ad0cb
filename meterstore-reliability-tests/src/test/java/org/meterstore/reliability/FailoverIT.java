package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.reliability.OutageDeployment.reading;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.meterstore.AppendHooks;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.reliability.ReplicatedPostgres.Replication;

/**
 * PostgreSQL — the hot tier and, by default, the Iceberg JDBC catalog — fails over: the primary is
 * killed at each step of {@code append} and of an archival run, and its standby is promoted; the
 * deployment knows both hosts through one multi-host JDBC URL. Promises checked:
 *
 * <ul>
 *   <li>with synchronous replication nothing acknowledged is lost or doubled: the interrupted call
 *       fails with a typed, retryable {@link MeterStoreException}, and the same catalog object (its
 *       pools reconnecting to the new primary) retries the batch, which reports {@code DUPLICATE}
 *       for what had landed, or runs the next cycle, which finishes the interrupted one;
 *   <li>with asynchronous replication the failover loses exactly the commits the standby never
 *       received, and with the catalog in the same PostgreSQL both tiers lose them together: every
 *       answer equals the reference model as of that prefix, and the next cycle archives again;
 *   <li>with a REST catalog outside PostgreSQL the lost bookkeeping (detach, committed W, drop) of
 *       a commit Iceberg kept leaves that window's rows in both tiers: queries count them once,
 *       {@code system.tables} reports them, and the next cycle detaches and reclaims them.
 * </ul>
 *
 * Each time SQL over both tiers equals the model, no hot row lies below W and every window is
 * archived once. One replicated pair serves every test; a failover leaves it without a standby,
 * which the next test rebuilds from the new primary.
 */
class FailoverIT {
  private static final Instant MAR1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant LOADED = Instant.parse("2026-03-05T00:00:00Z");

  /** The cycle that archives the Mar 2 window and reclaims Mar 1's partition. */
  private static final Instant CYCLE = MAR4.plus(Duration.ofHours(2));

  private static final int METERS = 3;
  private static final Duration BOUND = Duration.ofSeconds(15);

  /**
   * HikariCP's validation bypass (500 ms: a connection used less than that ago is handed out
   * unchecked) plus the longest pause of its connection creator after failed attempts (the
   * connection timeout, 1 s here).
   */
  private static final Duration POOL_SETTLES = Duration.ofMillis(1_700);

  @TempDir static Path dir;
  private static ReplicatedPostgres pair;
  private OutageDeployment d;
  private InMemoryMetricReader metrics;
  private OpenTelemetrySdk otel;

  @BeforeAll
  static void startPair() {
    pair = ReplicatedPostgres.start(dir.resolve("pg"));
  }

  @AfterAll
  static void stopPair() {
    pair.close();
  }

  @AfterEach
  void close() {
    if (d != null) {
      AppendHooks.install(d.catalog, AppendHook.NONE);
      d.close();
      otel.close();
      d = null;
    }
  }

  /** A step of an archival run at which the primary fails; {@code AFTER_RUN}: once it returned. */
  enum Moment {
    AFTER_LEASE(FaultPoint.AFTER_LEASE),
    AFTER_DETACH(FaultPoint.AFTER_DETACH),
    AFTER_COLD_COMMIT(FaultPoint.AFTER_COLD_COMMIT),
    AFTER_COMMIT(FaultPoint.AFTER_COMMIT),
    BEFORE_DROP(FaultPoint.BEFORE_DROP),
    AFTER_RUN(null);

    final FaultPoint point;

    Moment(FaultPoint point) {
      this.point = point;
    }
  }

  @ParameterizedTest(name = "synchronous, the primary fails {0}")
  @EnumSource(Moment.class)
  void aCycleInterruptedByAFailoverFailsRetryablyAndTheNextCycleFinishesIt(Moment moment)
      throws Exception {
    TableDefinition t = deployment("zyklus_" + lower(moment), Replication.SYNCHRONOUS, null);
    AtomicBoolean crashed = new AtomicBoolean();
    FaultHook crashHere =
        (p, table, partition) -> {
          if (p == moment.point && crashed.compareAndSet(false, true)) {
            pair.crashPrimary();
          }
        };

    long started = System.nanoTime();
    TableOutcome run =
        FaultInjection.during(crashHere, () -> cycle().runOnce(CYCLE)).row(t.name()).orElseThrow();
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    if (moment == Moment.AFTER_RUN) {
      assertThat(run.status()).isEqualTo(Status.ARCHIVED);
      pair.crashPrimary();
    } else {
      assertThat(crashed).as("the primary failed at %s", moment).isTrue();
      assertRetryableFailure(run, t, took);
      assertThat(failures(t)).as("meterstore.archival.failures").isEqualTo(1);
    }
    failOver();

    assertLeftBehind(moment, t);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);

    TableOutcome next = cycle().runOnce(CYCLE).row(t.name()).orElseThrow();

    boolean windowLeft = moment == Moment.AFTER_LEASE || moment == Moment.AFTER_DETACH;
    assertThat(next.status()).isEqualTo(windowLeft ? Status.ARCHIVED : Status.NOTHING_DUE);
    assertThat(next.counts().windowsArchived()).isEqualTo(windowLeft ? 1 : 0);
    assertThat(next.counts().orphansReclaimed()).isEqualTo(moment == Moment.AFTER_DETACH ? 1 : 0);
    assertThat(next.invariantViolations()).hasValue(0);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    assertThat(d.hot.partitions().committedWatermark(t)).isEqualTo(MAR3);
    assertThat(cycle().runOnce(CYCLE.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(MAR3));
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
  }

  @ParameterizedTest(name = "synchronous, the primary fails {0}")
  @EnumSource(
      value = AppendPoint.class,
      names = {"AFTER_ROUTING", "AFTER_HOT", "AFTER_COLD"})
  void anAppendInterruptedByAFailoverFailsRetryablyAndTheRetryLandsEachReadingOnce(
      AppendPoint point) throws Exception {
    TableDefinition t = deployment("schreiben_" + lower(point), Replication.SYNCHRONOUS, null);
    Reading hot1 = reading(1, MAR4.plus(Duration.ofHours(1)), "1.000001", 2);
    Reading hot2 = reading(2, MAR4.plus(Duration.ofHours(1)), "2.000002", 2);
    Reading late = reading(1, MAR1.plus(Duration.ofHours(2)), "3.000003", 2); // below W: cold
    List<Reading> batch = List.of(hot1, hot2, late);
    AtomicBoolean crashed = new AtomicBoolean();
    AppendHooks.install(
        d.catalog,
        (p, table, w) -> {
          if (p == point && crashed.compareAndSet(false, true)) {
            pair.crashPrimary();
          }
        });
    Instant at = LOADED.plus(Duration.ofHours(1));

    long started = System.nanoTime();
    MeterStoreException failure = null;
    try {
      d.catalog.table(t.name()).append(batch, at);
    } catch (MeterStoreException e) {
      failure = e;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(crashed).isTrue();
    assertThat(failure).as("the interrupted append fails").isNotNull();
    assertThat(failure.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(failure.isRetryable()).isTrue();
    assertThat(failure.getMessage()).startsWith("Cannot ").contains(t.name());
    if (point == AppendPoint.AFTER_HOT) {
      assertThat(failure.getMessage()).contains("landed before the failure", "0=HOT", "1=HOT");
    }
    assertThat(took).isLessThan(BOUND);
    AppendHooks.install(d.catalog, AppendHook.NONE);
    failOver();
    List<Reading> landed =
        switch (point) {
          case AFTER_ROUTING -> List.of();
          case AFTER_HOT -> List.of(hot1, hot2);
          default -> batch;
        };
    d.model(t).write(landed, at); // synchronous: what committed before the crash survived it
    d.assertQueriesEqualModel(t);

    WriteResult retried = d.append(t, batch, at); // the outcomes must be the model's

    assertThat(retried.outcomes())
        .containsExactly(
            landed.contains(hot1) ? WriteOutcome.DUPLICATE : WriteOutcome.SUPERSEDED,
            landed.contains(hot2) ? WriteOutcome.DUPLICATE : WriteOutcome.SUPERSEDED,
            landed.contains(late) ? WriteOutcome.DUPLICATE : WriteOutcome.SUPERSEDED);
    assertThat(retried.tiers()).containsExactly(Tier.HOT, Tier.HOT, Tier.COLD);
    assertThat(d.watermark(t)).isEqualTo(MAR2);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
  }

  @Test
  void asynchronouslyAFailoverLosesWhatTheStandbyNeverReceivedInBothTiersAlike() throws Exception {
    TableDefinition t = deployment("asynchron", Replication.ASYNCHRONOUS, null);
    pair.disconnectStandby();
    // acknowledged by the primary alone: a hot reading, a late correction, an archival cycle
    List<Reading> lost =
        List.of(
            reading(1, MAR4.plus(Duration.ofHours(5)), "7.000007", 2),
            reading(2, MAR1.plus(Duration.ofHours(5)), "8.000008", 2));
    Instant at = LOADED.plus(Duration.ofHours(1));
    WriteResult acknowledged = d.catalog.table(t.name()).append(lost, at);
    assertThat(acknowledged.tiers()).containsExactly(Tier.HOT, Tier.COLD);
    TableOutcome archived = cycle().runOnce(CYCLE).row(t.name()).orElseThrow();
    assertThat(archived.status()).isEqualTo(Status.ARCHIVED);
    assertThat(d.watermark(t)).isEqualTo(MAR3);

    pair.crashPrimary();
    failOver();

    // the prefix: the model before the disconnect (it never saw the lost batch)
    assertThat(d.watermark(t)).as("the lost archival commit").isEqualTo(MAR2);
    assertThat(d.hot.partitions().committedWatermark(t)).isEqualTo(MAR2);
    assertThat(partition(t, MAR1).state()).as("the lost drop").isEqualTo(PartitionState.DETACHED);
    assertThat(partition(t, MAR2).state()).as("the lost detach").isEqualTo(PartitionState.ATTACHED);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
    assertThat(health(CYCLE)).isTrue();

    TableOutcome next = cycle().runOnce(CYCLE).row(t.name()).orElseThrow();

    assertThat(next.status()).isEqualTo(Status.ARCHIVED);
    assertThat(next.counts().windowsArchived()).isEqualTo(1);
    assertThat(next.counts().partitionsDropped()).isEqualTo(1);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
    // delivered again, the lost readings land as new
    assertThat(d.append(t, lost, at).outcomes()).containsOnly(WriteOutcome.SUPERSEDED);
    assertThat(cycle().runOnce(CYCLE.plus(Duration.ofHours(2))).healthy()).isTrue();
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
  }

  @Test
  void aRestCatalogKeepsACommitWhoseBookkeepingTheFailoverLostAndTheNextCycleRepairsIt()
      throws Exception {
    try (RestBackend rest = new RestBackend(dir.resolve("rest-warehouse"))) {
      TableDefinition t = deployment("rest_verlust", Replication.ASYNCHRONOUS, rest.config());
      pair.disconnectStandby();
      TableOutcome archived = cycle().runOnce(CYCLE).row(t.name()).orElseThrow();
      assertThat(archived.status()).isEqualTo(Status.ARCHIVED);
      assertThat(archived.counts().partitionsDropped()).isEqualTo(1);
      List<Reading> lost = List.of(reading(1, MAR4.plus(Duration.ofHours(5)), "7.000007", 2));
      Instant at = LOADED.plus(Duration.ofHours(1));
      assertThat(d.catalog.table(t.name()).append(lost, at).tiers()).containsExactly(Tier.HOT);

      pair.crashPrimary();
      failOver();

      // Iceberg kept the Mar 2 commit; PostgreSQL lost its detach, the committed W and the drop
      assertThat(d.watermark(t)).isEqualTo(MAR3);
      assertThat(d.hot.partitions().committedWatermark(t)).isEqualTo(MAR2);
      assertThat(partition(t, MAR1).state()).isEqualTo(PartitionState.DETACHED);
      String mar2 = partition(t, MAR2).name();
      assertThat(partition(t, MAR2).state()).isEqualTo(PartitionState.ATTACHED);
      long doubled = d.hot.partitions().countRowsBelow(t, MAR3);
      assertThat(doubled).as("the Mar 2 window, in both tiers").isEqualTo(96L * METERS);
      d.assertQueriesEqualModel(t); // counted once; the lost reading is gone
      assertThat(d.systemTables(CYCLE, "invariant_violations")).isEqualTo(Long.toString(doubled));
      assertThat(health(CYCLE)).as("system.tables healthy").isFalse();

      TableOutcome repaired;
      try (LogCapture log = new LogCapture()) {
        repaired = cycle().runOnce(CYCLE.plus(Duration.ofHours(1))).row(t.name()).orElseThrow();
        assertThat(log.lines())
            .anySatisfy(l -> assertThat(l).contains("WARN", mar2, "lost its detach"));
      }

      assertThat(repaired.status()).isEqualTo(Status.NOTHING_DUE);
      assertThat(repaired.invariantViolations()).hasValue(0);
      assertThat(repaired.counts().partitionsDropped()).isEqualTo(2);
      assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(MAR3));
      assertThat(d.hot.partitions().committedWatermark(t)).isEqualTo(MAR3);
      assertThat(health(CYCLE.plus(Duration.ofHours(1)))).isTrue();
      d.assertTieringHolds(t);
      d.assertQueriesEqualModel(t);
      assertThat(d.append(t, lost, at).outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
      d.assertQueriesEqualModel(t);
    }
  }

  /**
   * A table on the replicated pair in {@code mode}, its cold tier in {@code coldCatalog} (null: the
   * JDBC catalog in the same PostgreSQL), loaded with four days of three meters; Mar 1 archived (W
   * = Mar 2) and its partition due for reclamation.
   */
  private TableDefinition deployment(String name, Replication mode, ColdConfig coldCatalog)
      throws Exception {
    pair.ready(mode);
    TableDefinition t = OutageDeployment.table(name);
    metrics = InMemoryMetricReader.create();
    otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    String url = pair.jdbcUrl();
    ColdConfig cold =
        coldCatalog != null
            ? coldCatalog
            : ColdConfig.jdbc(
                url, ReplicatedPostgres.USER, null, dir.resolve("wh-" + name).toUri().toString());
    d =
        new OutageDeployment(
            url,
            ReplicatedPostgres.USER,
            null,
            cold,
            List.of(t),
            ObjectStoreSwitch.named("failover-" + name),
            MAR1,
            otel);
    d.load(t, METERS, MAR1, 4, LOADED);
    assertThat(cycle().runOnce(MAR3).row(name).orElseThrow().status()).isEqualTo(Status.ARCHIVED);
    assertThat(d.watermark(t)).isEqualTo(MAR2);
    return t;
  }

  /**
   * Promotes the standby, then waits until the hot pool settles ({@link #POOL_SETTLES}): a call
   * right after the promotion may still get a connection of the dead primary, or find the pool's
   * creator pausing after its failed attempts, and fail once, retryably. A caller's retry or the
   * next maintenance interval comes later.
   */
  private static void failOver() throws InterruptedException {
    pair.promoteStandby();
    Thread.sleep(POOL_SETTLES.toMillis());
  }

  private MaintenanceBuilder cycle() {
    return d.catalog.maintenance().maxWindowsPerCycle(8).sourceChunkRows(100);
  }

  private static void assertRetryableFailure(TableOutcome run, TableDefinition t, Duration took) {
    assertThat(took).isLessThan(BOUND);
    assertThat(run.status()).isEqualTo(Status.FAILED);
    MeterStoreException e = run.failure().orElseThrow();
    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(e.isRetryable()).isTrue();
    assertThat(e.getMessage()).startsWith("Cannot ").contains(t.name());
  }

  /** What the run left when the primary failed at {@code moment}: a crash's state there. */
  private void assertLeftBehind(Moment moment, TableDefinition t) {
    Instant w = d.watermark(t);
    Instant committed = d.hot.partitions().committedWatermark(t);
    PartitionState mar2 = partition(t, MAR2).state();
    switch (moment) {
      case AFTER_LEASE -> {
        assertThat(w).isEqualTo(MAR2);
        assertThat(mar2).isEqualTo(PartitionState.ATTACHED);
      }
      case AFTER_DETACH -> {
        assertThat(w).isEqualTo(MAR2);
        assertThat(mar2).isEqualTo(PartitionState.DETACHED);
      }
      case AFTER_COLD_COMMIT -> {
        assertThat(w).isEqualTo(MAR3);
        assertThat(committed).as("not recorded yet").isEqualTo(MAR2);
      }
      case AFTER_COMMIT, BEFORE_DROP -> {
        assertThat(w).isEqualTo(MAR3);
        assertThat(committed).isEqualTo(MAR3);
        assertThat(partition(t, MAR1).state()).isEqualTo(PartitionState.DETACHED);
      }
      case AFTER_RUN -> {
        assertThat(w).isEqualTo(MAR3);
        assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().equals(MAR1));
      }
    }
  }

  private PartitionInfo partition(TableDefinition t, Instant lower) {
    return d.hot.partitions().list(t).stream()
        .filter(p -> p.lowerBound().equals(lower))
        .findFirst()
        .orElseThrow();
  }

  /** {@code meterstore.archival.failures} of {@code t}. */
  private long failures(TableDefinition t) {
    return metrics.collectAllMetrics().stream()
        .filter(m -> m.getName().equals("meterstore.archival.failures"))
        .map(MetricData::getLongSumData)
        .flatMap(s -> s.getPoints().stream())
        .mapToLong(p -> p.getValue())
        .sum();
  }

  /** {@code healthy} of the table's {@code system.tables} row at {@code now}. */
  private boolean health(Instant now) throws Exception {
    return d.systemTables(now, "healthy").equals("true");
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }
}
