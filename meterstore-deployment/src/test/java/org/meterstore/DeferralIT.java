package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * A long reader holding a lock on the due partition: the cycle reports {@code DEFERRED} within
 * {@code ddl_lock_timeout} plus slack while writes into the current partition keep completing. In
 * the default {@code DETACH … CONCURRENTLY} mode the timeout interrupts the detach between its two
 * transactions and a later cycle (in either mode) finishes it with {@code FINALIZE}; in plain mode
 * the deferred cycle changed nothing and the next cycle after the reader ends archives.
 */
@ExtendWith(PostgresExtension.class)
class DeferralIT {
  private static final Duration TIMEOUT = Duration.ofMillis(500);
  private static final Duration SLACK = Duration.ofSeconds(15);
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");

  @TempDir static Path warehouse;
  private static CatalogFixture d;
  private static ExecutorService threads;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, TIMEOUT, OpenTelemetry.noop());
    threads = Executors.newCachedThreadPool();
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    d.close();
  }

  @Test
  void aLongReaderDefersThePlainDetachWhileWritesKeepFlowing(TestDatabase db) throws Exception {
    TableDefinition table = prepare("warten");
    MaintenanceBuilder loop =
        d.catalog(List.of(table), OpenTelemetry.noop()).maintenance().detachMode(DetachMode.PLAIN);
    try (Connection reader = db.connect()) {
      openLongReader(reader, table);
      Writer writer = new Writer(table);
      Future<List<Duration>> writes = threads.submit(writer);

      TableOutcome row = timed(() -> loop.runOnce(NOW).row("warten").orElseThrow());

      writer.stop.set(true);
      List<Duration> latencies = writes.get(SLACK.toSeconds(), TimeUnit.SECONDS);
      assertThat(row.status()).isEqualTo(Status.DEFERRED);
      assertThat(row.counts().windowsArchived()).isZero();
      assertThat(d.cold.createTable(table).watermark()).isEqualTo(Instant.EPOCH);
      assertThat(d.hot.partitions().list(table)).allMatch(p -> p.isAttached());
      assertThat(latencies).isNotEmpty().allMatch(l -> l.compareTo(TIMEOUT.plus(SLACK)) < 0);
      reader.rollback();
    }
    TableOutcome after = loop.runOnce(NOW).row("warten").orElseThrow();
    assertThat(after.status()).isEqualTo(Status.ARCHIVED);
    assertThat(after.invariantViolations()).hasValue(0);
  }

  @Test
  void theDefaultDetachInterruptedBetweenItsTransactionsIsFinishedByTheNextDefaultCycle(
      TestDatabase db) throws Exception {
    TableDefinition table = prepare("gleichzeitig");
    // No detach mode given: the catalog's default, which must be CONCURRENTLY.
    MaintenanceBuilder loop = d.catalog(List.of(table), OpenTelemetry.noop()).maintenance();

    interruptTheFirstDetach(db, table, loop);
    // Until it is finished, the pending window refuses writes retryably, as one being archived.
    Reading late = reading(2000, Instant.parse("2026-03-01T23:00:00Z"));
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    assertThatThrownBy(() -> catalog.table(table.name()).append(List.of(late), NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
              assertThat(e.isRetryable()).isTrue();
            })
        .hasMessageContaining("being archived");

    TableOutcome after = loop.runOnce(NOW).row(table.name()).orElseThrow();
    assertFinished(table, after);
  }

  @Test
  void aPendingDetachIsFinishedByAPlainCycleToo(TestDatabase db) throws Exception {
    TableDefinition table = prepare("nachzuegler");
    MaintenanceBuilder concurrent =
        d.catalog(List.of(table), OpenTelemetry.noop())
            .maintenance()
            .detachMode(DetachMode.CONCURRENTLY);

    interruptTheFirstDetach(db, table, concurrent);

    MaintenanceBuilder plain =
        d.catalog(List.of(table), OpenTelemetry.noop()).maintenance().detachMode(DetachMode.PLAIN);
    assertFinished(table, plain.runOnce(NOW).row(table.name()).orElseThrow());
  }

  /**
   * Runs {@code loop} once while a long reader holds the table: the cycle defers, writes kept
   * completing, and the first due partition is left {@code DETACH_PENDING} (so the loop detached
   * concurrently; a plain detach would have left it attached).
   */
  private static void interruptTheFirstDetach(
      TestDatabase db, TableDefinition table, MaintenanceBuilder loop) throws Exception {
    String first = table.name() + "_2026_03_01_0000";
    try (Connection reader = db.connect()) {
      openLongReader(reader, table);
      Writer writer = new Writer(table);
      Future<List<Duration>> writes = threads.submit(writer);

      TableOutcome row = timed(() -> loop.runOnce(NOW).row(table.name()).orElseThrow());

      writer.stop.set(true);
      assertThat(writes.get(SLACK.toSeconds(), TimeUnit.SECONDS)).isNotEmpty();
      assertThat(row.status()).isEqualTo(Status.DEFERRED);
      assertThat(d.hot.partitions().list(table))
          .filteredOn(p -> p.name().equals(first))
          .singleElement()
          .matches(p -> p.state() == PartitionState.DETACH_PENDING);
      reader.rollback();
    }
  }

  private static void assertFinished(TableDefinition table, TableOutcome after) {
    assertThat(after.status()).isEqualTo(Status.ARCHIVED);
    assertThat(after.counts().windowsArchived()).isEqualTo(4);
    assertThat(d.cold.createTable(table).watermark())
        .isEqualTo(Instant.parse("2026-03-05T00:00:00Z"));
    assertThat(d.hot.partitions().list(table))
        .noneMatch(p -> p.state() == PartitionState.DETACH_PENDING);
    assertThat(after.invariantViolations()).hasValue(0);
  }

  /** A table with three Berlin days of five meters, its headroom created at {@link #NOW}. */
  private static TableDefinition prepare(String name) {
    TableDefinition table = CatalogFixture.table(name, LAG, Duration.ZERO);
    d.create(List.of(table), NOW);
    d.write(
        table,
        new Workload(5, LocalDate.of(2026, 3, 2), 3, 0, 0.0, 0.0, 5),
        new ReferenceModel(table),
        NOW);
    d.hot.partitions().ensureHeadroom(table, NOW);
    return table;
  }

  private static <T> T timed(java.util.function.Supplier<T> cycle) {
    long started = System.nanoTime();
    T result = cycle.get();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT.plus(SLACK));
    return result;
  }

  private static void openLongReader(Connection reader, TableDefinition table) throws SQLException {
    reader.setAutoCommit(false);
    try (Statement s = reader.createStatement()) {
      s.executeQuery("SELECT count(*) FROM \"meterstore\".\"" + table.name() + "\"").close();
    }
  }

  /** One quarter-hour of {@code meter} from {@code from}. */
  private static Reading reading(int meter, Instant from) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, Resolution.PT15M)
        .value("1.5")
        .version("20260306050000")
        .operator(Workload.OPERATOR)
        .build();
  }

  /** Writes one quarter-hour of a new meter into the current day until stopped. */
  private static final class Writer implements java.util.concurrent.Callable<List<Duration>> {
    final AtomicBoolean stop = new AtomicBoolean();
    private final TableDefinition table;

    Writer(TableDefinition table) {
      this.table = table;
    }

    @Override
    public List<Duration> call() {
      List<Duration> latencies = new ArrayList<>();
      for (int meter = 1000; !stop.get() || latencies.isEmpty(); meter++) {
        Reading r = reading(meter, NOW.minus(Duration.ofHours(1)));
        long started = System.nanoTime();
        d.hot.write(table, List.of(r), NOW);
        latencies.add(Duration.ofNanos(System.nanoTime() - started));
      }
      return latencies;
    }
  }
}
