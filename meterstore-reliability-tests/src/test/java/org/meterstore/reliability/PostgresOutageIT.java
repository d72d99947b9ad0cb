package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.reliability.OutageDeployment.reading;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.TableOutcome;

/**
 * PostgreSQL — the hot tier and the Iceberg JDBC catalog — stops mid-cycle and mid-append and comes
 * back on the same port and data directory. Promise checked: the failing call reports a typed,
 * retryable {@link MeterStoreException} naming what it could not do, nothing is half-written, and
 * the same catalog object (its pools reconnecting) completes the next cycle or the retried batch,
 * which reports {@code DUPLICATE} for what had landed. Afterwards SQL over both tiers equals the
 * reference model, no hot row lies below W and every window was archived once.
 */
class PostgresOutageIT {
  private static final Instant MAR1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant LOADED = Instant.parse("2026-03-05T00:00:00Z");
  private static final int METERS = 3;
  private static final Duration BOUND = Duration.ofSeconds(15);
  private static final Duration HIKARI_ALIVE_BYPASS = Duration.ofMillis(500);

  @TempDir static Path dir;
  private static RestartablePostgres pg;
  private OutageDeployment d;

  @BeforeAll
  static void startServer() {
    pg = RestartablePostgres.start(dir.resolve("pg"));
  }

  @AfterAll
  static void stopServer() {
    pg.close();
  }

  @BeforeEach
  void serverUp() {
    pg.restart();
  }

  @AfterEach
  void close() {
    pg.restart();
    if (d != null) {
      d.close();
    }
  }

  private TableDefinition deployment(String name) {
    TableDefinition t = OutageDeployment.table(name);
    d =
        new OutageDeployment(
            pg.jdbcUrl(),
            RestartablePostgres.USER,
            null,
            dir.resolve("warehouse-" + name),
            List.of(t),
            ObjectStoreSwitch.named("pg-" + name),
            MAR1);
    d.load(t, METERS, MAR1, 4, LOADED);
    return t;
  }

  /**
   * Restarts the server and waits out HikariCP's validation bypass window (500 ms): a connection
   * used less than that ago is handed out unchecked, so a call right after a sub-second restart can
   * still get a connection of the old server and fail (retryably, 57P01; Hikari then evicts it). A
   * maintenance interval or a caller's retry is always longer.
   */
  private static void restartAndSettle() throws InterruptedException {
    pg.restart();
    Thread.sleep(HIKARI_ALIVE_BYPASS.plusMillis(200).toMillis());
  }

  private MaintenanceBuilder cycle() {
    return d.catalog.maintenance().maxWindowsPerCycle(8).sourceChunkRows(100);
  }

  @ParameterizedTest(name = "PostgreSQL stops at {0}")
  @EnumSource(
      value = FaultPoint.class,
      names = {"AFTER_DETACH", "BETWEEN_CHUNKS", "AFTER_COMMIT"})
  void aCycleInterruptedByAPostgresRestartFailsRetryablyAndTheNextCycleCompletes(FaultPoint point)
      throws Exception {
    TableDefinition t = deployment("zyklus_" + point.name().toLowerCase(Locale.ROOT));
    AtomicBoolean stopped = new AtomicBoolean();
    FaultHook stopHere =
        (p, table, partition) -> {
          if (p == point && stopped.compareAndSet(false, true)) {
            pg.stop();
          }
        };
    Instant now = MAR4; // due: the windows of Mar 1 and Mar 2

    long started = System.nanoTime();
    TableOutcome failed =
        FaultInjection.during(stopHere, () -> cycle().runOnce(now)).row(t.name()).orElseThrow();
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(stopped).isTrue();
    assertThat(took).isLessThan(BOUND);
    assertThat(failed.status()).isEqualTo(TableOutcome.Status.FAILED);
    MeterStoreException e = failed.failure().orElseThrow();
    assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
    assertThat(e.isRetryable()).isTrue();
    assertThat(e.getMessage()).startsWith("Cannot ").contains(t.name());

    restartAndSettle();
    Instant expected = point == FaultPoint.AFTER_COMMIT ? MAR2 : Instant.EPOCH;
    assertThat(d.watermark(t)).as("W after the interrupted run").isEqualTo(expected);
    d.assertTieringHolds(t);

    TableOutcome recovered = cycle().runOnce(now).row(t.name()).orElseThrow();

    assertThat(recovered.status()).isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    assertThat(cycle().runOnce(now.plus(Duration.ofHours(2))).healthy()).isTrue();
    assertThat(d.hot.partitions().list(t)).noneMatch(p -> p.lowerBound().isBefore(MAR3));
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
  }

  @Test
  void anAppendWhosePostgresGoesAwayFailsRetryablyAndTheRetriedBatchLands() throws Exception {
    TableDefinition t = deployment("schreiben");
    List<Reading> batch =
        List.of(
            reading(1, MAR4.plus(Duration.ofHours(1)), "1.000001", 2),
            reading(2, MAR4.plus(Duration.ofHours(1)), "2.000002", 2),
            reading(1, MAR3.plus(Duration.ofHours(2)), "3.000003", 2));
    AtomicBoolean stopped = new AtomicBoolean();
    AppendHooks.install(
        d.catalog,
        (point, table, w) -> {
          if (point == AppendPoint.AFTER_ROUTING && stopped.compareAndSet(false, true)) {
            pg.stop(); // routed by W, neither tier written yet
          }
        });
    Instant at = LOADED.plus(Duration.ofHours(1));

    long started = System.nanoTime();
    assertThatThrownBy(() -> d.catalog.table(t.name()).append(batch, at))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
            })
        .hasMessageStartingWith("Cannot ")
        .hasMessageContaining(t.name());
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);

    restartAndSettle();
    AppendHooks.install(d.catalog, AppendHook.NONE);
    d.assertQueriesEqualModel(t); // nothing of the batch landed

    WriteResult r = d.append(t, batch, at); // the same catalog: its pools reconnect

    assertThat(r.outcomes())
        .containsExactly(WriteOutcome.SUPERSEDED, WriteOutcome.SUPERSEDED, WriteOutcome.SUPERSEDED);
    assertThat(r.tiers()).containsOnly(Tier.HOT);
    d.assertQueriesEqualModel(t);
  }

  @Test
  void aBatchWhoseColdCommitLosesPostgresNamesWhatLandedAndTheRetryReportsItDuplicate()
      throws Exception {
    TableDefinition t = deployment("teilweise");
    assertThat(cycle().runOnce(MAR4).row(t.name()).orElseThrow().status())
        .isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    Reading hot = reading(1, MAR3.plus(Duration.ofHours(3)), "4.000004", 2);
    Reading late = reading(2, MAR2.plus(Duration.ofHours(3)), "5.000005", 2);
    List<Reading> batch = List.of(hot, late);
    // the hot part is written first; PostgreSQL stops while the cold part's Parquet file is written
    d.power.onEachOperation(
        (op, path) -> {
          if (op == ObjectStoreSwitch.Op.WRITE && path.contains("/data/")) {
            pg.stop();
          }
        });
    Instant at = LOADED.plus(Duration.ofHours(2));

    long started = System.nanoTime();
    assertThatThrownBy(() -> d.catalog.table(t.name()).append(batch, at))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
              assertThat(e.isRetryable()).isTrue();
            })
        .hasMessageContaining("Cannot append 2 readings to table " + t.name())
        .hasMessageContaining("landed before the failure (batch position=tier): 0=HOT");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);

    d.power.up();
    restartAndSettle();
    d.model(t).write(List.of(hot), at); // what landed
    d.assertQueriesEqualModel(t);

    WriteResult r = d.catalog.table(t.name()).append(batch, at);

    assertThat(r.outcomes()).containsExactly(WriteOutcome.DUPLICATE, WriteOutcome.SUPERSEDED);
    assertThat(r.tiers()).containsExactly(Tier.HOT, Tier.COLD);
    assertThat(d.model(t).write(List.of(late), at)).containsExactly(WriteOutcome.SUPERSEDED);
    assertThat(d.watermark(t)).isEqualTo(MAR3);
    d.assertTieringHolds(t);
    d.assertQueriesEqualModel(t);
  }
}
