package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.subject.SubjectRef;
import org.meterstore.hot.subject.Subjects;
import org.meterstore.hot.subject.Trigger;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceHandle;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The loop over a catalog: a quarantined table becomes a row while the others archive; a month of
 * due windows catches up eight windows per cycle; the retention sweep is the last row and its
 * failure is reported there; a spawned loop starts no thread before {@code spawn()} and stops after
 * the cycle in flight when closed.
 */
@ExtendWith(PostgresExtension.class)
class CatalogCycleIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant WRITTEN = Instant.parse("2026-04-20T00:00:00Z");

  @TempDir static Path warehouse;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aQuarantinedTableIsOneRowWhileTheOtherTwoArchive() {
    List<TableDefinition> tables = List.of(table("eins", 2), table("zwei", 2), table("drei", 2));
    d.cold
        .table(tables.get(1))
        .icebergTable()
        .updateSchema()
        .allowIncompatibleChanges()
        .addRequiredColumn("pflicht", Types.StringType.get())
        .commit();

    MaintenanceOutcome outcome =
        d.catalog(tables, OpenTelemetry.noop())
            .maintenance()
            .runOnce(Instant.parse("2026-03-06T06:00:00Z"));

    assertThat(outcome.rows())
        .extracting(TableOutcome::table)
        .containsExactly("eins", "zwei", "drei");
    assertThat(outcome.rows())
        .extracting(TableOutcome::status)
        .containsExactly(Status.ARCHIVED, Status.QUARANTINED, Status.ARCHIVED);
    assertThat(outcome.healthy()).isFalse();
    assertThat(outcome.unhealthy()).extracting(TableOutcome::table).containsExactly("zwei");
    assertThat(outcome.failures())
        .singleElement()
        .satisfies(
            r -> assertThat(r.failure().orElseThrow().kind()).isEqualTo(ErrorKind.QUARANTINED));
    assertThat(d.cold.createTable(tables.get(1)).watermark()).isEqualTo(Instant.EPOCH);
    assertThat(d.hot.partitions().list(tables.get(1))).allMatch(p -> p.isAttached());
    assertThat(d.cold.createTable(tables.get(2)).watermark())
        .isEqualTo(Instant.parse("2026-03-03T00:00:00Z"));
  }

  @Test
  void aMonthOfDueWindowsCatchesUpEightWindowsPerCycle() {
    TableDefinition table = table("monat", 31);
    MaintenanceBuilder loop =
        d.catalog(List.of(table), OpenTelemetry.noop()).maintenance().maxWindowsPerCycle(8);
    Instant now = Instant.parse("2026-04-10T06:00:00Z");
    Instant w = Instant.parse("2026-02-28T00:00:00Z");
    for (int cycle = 0; cycle < 4; cycle++) {
      TableOutcome row = loop.runOnce(now).row("monat").orElseThrow();
      assertThat(row.status()).isEqualTo(Status.ARCHIVED);
      assertThat(row.counts().windowsArchived()).isEqualTo(8);
      w = w.plus(Duration.ofDays(8));
      assertThat(d.cold.createTable(table).watermark()).isEqualTo(w);
      assertThat(row.invariantViolations()).hasValue(0);
    }
    assertThat(w).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
    assertThat(loop.runOnce(now).row("monat").orElseThrow().status()).isEqualTo(Status.NOTHING_DUE);
  }

  @Test
  void snapshotsAreExpiredOnlyWhenEnabledAndWNeverMoves() {
    TableDefinition table = table("verfall", 2);
    Instant now = Instant.parse("2026-03-06T06:00:00Z");
    assertThat(
            d.catalog(List.of(table), OpenTelemetry.noop())
                .maintenance()
                .runOnce(now)
                .row("verfall")
                .orElseThrow()
                .counts()
                .windowsArchived())
        .isEqualTo(3);
    int snapshots = d.cold.createTable(table).snapshots().size();
    Instant w = d.cold.createTable(table).watermark();
    // Iceberg stamps commits with the wall clock, so expiry is asked far in the future, with a
    // settlement lag that keeps every window from coming due there.
    TableDefinition shortLived =
        table.withPolicy(
            table
                .policy()
                .withSettlementLag(Duration.ofDays(365L * 200))
                .withSnapshotRetention(java.time.Period.ZERO, 1));
    MeterCatalog catalog = d.catalog(List.of(shortLived), OpenTelemetry.noop());
    Instant later = Instant.parse("2099-01-01T00:00:00Z");

    catalog.maintenance().runOnce(later);
    assertThat(d.cold.createTable(table).snapshots()).hasSize(snapshots);

    TableOutcome row =
        catalog.maintenance().expireSnapshots(true).runOnce(later).row("verfall").orElseThrow();
    assertThat(row.status()).isEqualTo(Status.NOTHING_DUE);
    assertThat(d.cold.createTable(table).snapshots()).hasSize(1);
    assertThat(d.cold.createTable(table).watermark()).isEqualTo(w);
  }

  /**
   * Issue #33: orphan-file removal is an optional step of the cycle. Off by default (the debris
   * stays); on, the cycle whose run won the lease deletes the file nothing references and counts
   * it, and the table's own files stay; a minimum age under an hour is refused.
   */
  @Test
  void theOrphanFileStepDeletesDebrisOnlyWhenAsked() throws Exception {
    TableDefinition table = table("waisen", 2);
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    Instant now = Instant.parse("2026-03-06T06:00:00Z");
    assertThat(catalog.maintenance().runOnce(now).windowsArchived()).isPositive();
    List<Path> files = dataFiles("waisen");
    assertThat(files).isNotEmpty();
    Path debris = files.get(0).resolveSibling("00000-0-never-committed-00001.parquet");
    java.nio.file.Files.write(debris, new byte[] {'P', 'A', 'R', '1'});
    java.nio.file.Files.setLastModifiedTime(
        debris, java.nio.file.attribute.FileTime.from(Instant.parse("2026-03-01T00:00:00Z")));

    TableOutcome off = catalog.maintenance().runOnce(now).row("waisen").orElseThrow();
    assertThat(off.counts().orphanFilesRemoved()).isZero();
    assertThat(debris).exists();

    assertThatThrownBy(() -> catalog.maintenance().removeOrphanFiles(Duration.ofMinutes(10)))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("orphan minimum age");

    TableOutcome on =
        catalog
            .maintenance()
            .removeOrphanFiles(Duration.ofHours(1))
            .runOnce(now)
            .row("waisen")
            .orElseThrow();
    assertThat(on.status()).isEqualTo(Status.NOTHING_DUE);
    assertThat(on.leaseWon()).isTrue();
    assertThat(on.counts().orphanFilesRemoved()).isEqualTo(1);
    assertThat(debris).doesNotExist();
    assertThat(dataFiles("waisen")).containsExactlyInAnyOrderElementsOf(files);
  }

  private static List<Path> dataFiles(String table) throws java.io.IOException {
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(warehouse)) {
      return walk.filter(p -> p.toString().endsWith(".parquet"))
          .filter(p -> p.toString().contains("/" + table + "/"))
          .toList();
    }
  }

  @Test
  void theRetentionSweepIsTheLastRowAndItsFailureIsReportedThere() {
    TableDefinition table = table("sweep", 1);
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    Retention three = Retention.calendarYears(3);
    Instant now = Instant.parse("2026-03-06T06:00:00Z");
    AtomicReference<String> seen = new AtomicReference<>();

    MaintenanceOutcome swept =
        catalog
            .maintenance()
            .anonymiseAfter(three, "§ 60 Abs. 6 MsbG", "retention-job")
            .retentionSweep(
                (r, reason, actor, at) -> {
                  seen.set(r + "|" + reason + "|" + actor + "|" + at);
                  return 5;
                })
            .runOnce(now);
    assertThat(swept.rows())
        .extracting(TableOutcome::table)
        .containsExactly("sweep", "<retention>");
    assertThat(swept.row("<retention>").orElseThrow().counts().subjectsErased()).isEqualTo(5);
    assertThat(seen.get()).isEqualTo(three + "|§ 60 Abs. 6 MsbG|retention-job|" + now);
    assertThat(swept.healthy()).isTrue();

    MaintenanceOutcome failed =
        catalog
            .maintenance()
            .anonymiseAfter(three, "§ 60 Abs. 6 MsbG", "retention-job")
            .retentionSweep(
                (r, reason, actor, at) -> {
                  throw new MeterStoreException(ErrorKind.STORAGE, "Cannot sweep: registry down");
                })
            .runOnce(now);
    assertThat(failed.failures()).extracting(TableOutcome::table).containsExactly("<retention>");
    assertThat(failed.healthy()).isFalse();
    assertThat(failed.row("sweep").orElseThrow().status()).isNotEqualTo(Status.FAILED);
  }

  @Test
  void byDefaultTheLoopSweepsTheSubjectRegistryOnTheStatutesClock() {
    TableDefinition table = table("registry_sweep", 1);
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    Subjects subjects = catalog.subjects();
    Instant registeredAt = Instant.parse("2026-03-01T00:00:00Z");
    SubjectRef old =
        subjects.registerSubject(
            "DE-LOOP-OLD", Instant.parse("2025-01-02T10:00:00Z"), Commodity.STROM, registeredAt);
    SubjectRef young =
        subjects.registerSubject(
            "DE-LOOP-YOUNG", Instant.parse("2026-01-02T10:00:00Z"), Commodity.STROM, registeredAt);
    Instant dueDay = Instant.parse("2028-12-30T23:00:00Z"); // 31 December 2028, 00:00 in Berlin

    MaintenanceOutcome dayBefore =
        catalog
            .maintenance()
            .anonymiseAfter(Retention.calendarYears(3), "§ 60 Abs. 6 MsbG", "retention-job")
            .runOnce(dueDay.minusSeconds(1));
    assertThat(dayBefore.row("<retention>").orElseThrow().counts().subjectsErased()).isZero();

    MaintenanceOutcome onTheDay =
        catalog
            .maintenance()
            .anonymiseAfter(Retention.calendarYears(3), "§ 60 Abs. 6 MsbG", "retention-job")
            .runOnce(dueDay);
    assertThat(onTheDay.row("<retention>").orElseThrow().counts().subjectsErased()).isEqualTo(1);
    assertThat(onTheDay.healthy()).isTrue();
    assertThat(subjects.erasures(registeredAt, dueDay.plusSeconds(1), Trigger.RETENTION, 10))
        .hasSize(1);
    // the 2026 mapping is kept: registering again returns the same reference
    assertThat(
            subjects.registerSubject(
                "DE-LOOP-YOUNG", Instant.parse("2026-06-01T10:00:00Z"), Commodity.STROM, dueDay))
        .isEqualTo(young);
    assertThat(old.year()).isEqualTo(java.time.Year.of(2025));
  }

  @Test
  void aSpawnedLoopStartsNoThreadBeforeSpawnAndStopsAfterTheCycleInFlight() throws Exception {
    TableDefinition table = table("schleife", 1);
    MaintenanceBuilder loop =
        d.catalog(List.of(table), OpenTelemetry.noop())
            .maintenance()
            .interval(Duration.ofMillis(50))
            .clock(InstantSource.fixed(Instant.parse("2026-03-06T06:00:00Z")));
    assertThat(loopThreads()).isZero();
    MaintenanceHandle handle = loop.spawn();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (handle.cyclesCompleted() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    handle.close();
    long cycles = handle.cyclesCompleted();
    assertThat(cycles).isGreaterThanOrEqualTo(2);
    assertThat(handle.lastOutcome().orElseThrow().healthy()).isTrue();
    Thread.sleep(200);
    assertThat(handle.cyclesCompleted()).isEqualTo(cycles);
    assertThat(loopThreads()).isZero();
  }

  private static long loopThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("meterstore-maintenance") && t.isAlive())
        .count();
  }

  /** A table with {@code days} Berlin days of two meters from 1 March 2026. */
  private static TableDefinition table(String name, int days) {
    return d.withDaysOfReadings(name, days, LAG, WRITTEN);
  }
}
