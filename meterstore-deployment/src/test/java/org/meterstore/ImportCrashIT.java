package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A process importing a month of 20 meters in chunks is killed with {@code kill -9} after at least
 * one chunk was committed and before the end: between two chunks, and after a chunk raised the hot
 * floor but before its window was committed (the child's Iceberg commit is held on a row lock of
 * the catalog table, then the process is killed and the held statement's backend terminated). The
 * store is consistent (W on the partition grid, ahead of where it started and short of the end, no
 * hot row below W, the floor at or above W); an {@code append} into the window whose floor was
 * raised is refused with {@code LOCK_TIMEOUT} and strands nothing; re-running the import completes
 * it — the committed readings {@code DUPLICATE}, the rest stored — and the table then equals the
 * same file imported once without a crash, row for row and in count and sum; a third run is all
 * {@code DUPLICATE} with no commit.
 */
@ExtendWith(PostgresExtension.class)
class ImportCrashIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-02-20T00:00:00Z");
  private static final Instant MARCH = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant APRIL = Instant.parse("2026-04-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-04-10T00:00:00Z");

  /** The file's {@code recorded_at}: its readings carry this arrival version. */
  private static final Instant RECORDED = Instant.parse("2026-04-02T08:15:00.250Z");

  private static final int METERS = 20;
  private static final int CHUNK_ROWS = 5_000;
  private static final ImportOptions OPTIONS = ImportOptions.DEFAULTS.withChunkRows(CHUNK_ROWS);

  @TempDir static Path warehouse;
  @TempDir static Path scratch;
  private static CatalogFixture d;
  private static Path file;
  private static List<Object[]> rows;
  private static TableDefinition once;
  private static ImportResult onceResult;

  /** Where the importing process is killed. */
  enum KilledAt {
    /** Hung in the progress callback after the second chunk's commit. */
    BETWEEN_CHUNKS,
    /** The second chunk's floor raised, its Iceberg commit held on a row lock. */
    BEFORE_WINDOW_COMMIT
  }

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
    once = CatalogFixture.table("import_once", LAG, GRACE);
    rows = month(once);
    file = ImportCsv.write(scratch.resolve("march.csv"), once, rows);
    try (MeterCatalog catalog = d.catalog(List.of(once), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      onceResult = catalog.table(once.name()).importHistory(ImportSource.of(file), NOW, OPTIONS);
    }
    assertThat(onceResult.inserted()).isEqualTo(rows.size());
    assertThat(onceResult.chunks()).isGreaterThan(5);
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @ParameterizedTest
  @EnumSource(KilledAt.class)
  void aRerunCompletesAnImportKilledMidwayAndTheTableEqualsOneWrittenOnce(
      KilledAt at, TestDatabase db) throws Exception {
    TableDefinition table = CatalogFixture.table("import_killed_" + at.ordinal(), LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
    }
    Instant start = d.cold.createTable(table).watermark();
    killMidway(at, table, db);
    awaitLeaseReleased(db);

    Instant w = d.cold.createTable(table).watermark();
    Instant floor = d.hot.partitions().floor(table);
    assertThat(d.hot.partitions().windowStart(table, w)).isEqualTo(w);
    assertThat(w).isAfter(start).isBefore(APRIL);
    assertThat(d.hot.partitions().countRowsBelow(table, floor)).isZero();
    long committed = rows.stream().filter(r -> ((Instant) r[4]).isBefore(w)).count();
    assertThat(d.coldRows(table)).isEqualTo(committed);
    if (at == KilledAt.BEFORE_WINDOW_COMMIT) {
      assertThat(floor).isAfter(w);
    } else {
      assertThat(floor).isEqualTo(w);
    }
    // a floor raised ahead of W by an import is no rollback: the last committed W is W itself
    assertThat(d.hot.partitions().committedWatermark(table)).isEqualTo(w);

    try (MeterCatalog catalog = d.catalog(List.of(table, once), OpenTelemetry.noop())) {
      assertThat(countAndSum(catalog, table)).startsWith(committed + " ");
      writeBeforeTheRerun(at, catalog, table, w, floor);
      assertThat(d.hot.partitions().countRowsBelow(table, APRIL)).isZero();
      assertThat(d.coldRows(table)).isEqualTo(committed);

      ImportResult rerun =
          catalog.table(table.name()).importHistory(ImportSource.of(file), NOW, OPTIONS);
      assertThat(rerun.rows()).isEqualTo(rows.size());
      assertThat(rerun.duplicate()).isEqualTo(committed);
      assertThat(rerun.inserted()).isEqualTo(rows.size() - committed);
      assertThat(rerun.stored()).isEqualTo(rows.size() - committed);
      assertThat(rerun.watermarkBefore()).isEqualTo(w);
      assertThat(rerun.watermarkAfter()).isEqualTo(APRIL);
      assertThat(d.hot.partitions().floor(table)).isEqualTo(APRIL);
      assertThat(d.hot.partitions().committedWatermark(table)).isEqualTo(APRIL);
      assertThat(d.hot.partitions().countRowsBelow(table, APRIL)).isZero();

      assertEqualsTheMonthImportedOnce(catalog, table);

      int snapshots = d.cold.createTable(table).snapshots().size();
      ImportResult third =
          catalog.table(table.name()).importHistory(ImportSource.of(file), NOW, OPTIONS);
      assertThat(third.duplicate()).isEqualTo(rows.size());
      assertThat(third.stored()).isZero();
      assertThat(third.commits()).isZero();
      assertThat(d.cold.createTable(table).snapshots()).hasSize(snapshots);
    }
  }

  /**
   * A migration's directory — the month in three files by day, CSV, Parquet and CSV again, beside a
   * {@code _SUCCESS} marker — imported by a process killed between two chunks while it reads the
   * second file: the first file is committed, the third not begun. Running the same directory again
   * completes it, the committed readings {@code DUPLICATE}; the table then equals the month
   * imported once from one file, row for row and in count and sum.
   */
  @Test
  void aRerunCompletesADirectoryImportKilledInItsSecondFile(TestDatabase db) throws Exception {
    Path dir = Files.createDirectories(scratch.resolve("migration"));
    Instant second = MARCH.plus(Duration.ofDays(10));
    Instant third = MARCH.plus(Duration.ofDays(20));
    ImportCsv.write(dir.resolve("2026-03-01.csv"), once, between(MARCH, second));
    ImportParquet.write(
        dir.resolve("2026-03-11.parquet"), once, between(second, third), ImportParquet.Style.COLD);
    ImportCsv.write(dir.resolve("2026-03-21.csv"), once, between(third, APRIL));
    Files.writeString(dir.resolve("_SUCCESS"), "");
    TableDefinition table = CatalogFixture.table("import_dir_killed", LAG, GRACE);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
    }
    ChildArgs args =
        new ChildArgs(db, warehouse, table.name(), LAG, GRACE)
            .put("chunkRows", Integer.toString(CHUNK_ROWS))
            .put("file", dir.toString())
            .put("now", NOW.toString())
            .put("hangAfter", "6");
    Child child = Child.start(ImportChild.class, log(table.name()), args.list());
    child.await("CHUNK 6 ", 180);
    child.kill();
    awaitLeaseReleased(db);

    Instant w = d.cold.createTable(table).watermark();
    assertThat(w).as("W after the first file, before the third").isAfter(second).isBefore(third);
    long committed = rows.stream().filter(r -> ((Instant) r[4]).isBefore(w)).count();
    assertThat(d.coldRows(table)).isEqualTo(committed);
    assertThat(d.hot.partitions().countRowsBelow(table, d.hot.partitions().floor(table))).isZero();

    try (MeterCatalog catalog = d.catalog(List.of(table, once), OpenTelemetry.noop())) {
      ImportResult rerun =
          catalog.table(table.name()).importHistory(ImportSource.of(dir), NOW, OPTIONS);
      assertThat(rerun.rows()).isEqualTo(rows.size());
      assertThat(rerun.duplicate()).isEqualTo(committed);
      assertThat(rerun.inserted()).isEqualTo(rows.size() - committed);
      assertThat(rerun.watermarkBefore()).isEqualTo(w);
      assertThat(rerun.watermarkAfter()).isEqualTo(APRIL);

      assertEqualsTheMonthImportedOnce(catalog, table);
    }
  }

  /** {@code table} holds what the month imported once without a crash holds, row for row. */
  private static void assertEqualsTheMonthImportedOnce(MeterCatalog catalog, TableDefinition table)
      throws SQLException {
    List<Object[]> expected = ImportCsv.sorted(d.cold.createTable(once).read());
    List<Object[]> actual = ImportCsv.sorted(d.cold.createTable(table).read());
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).containsExactly(expected.get(i));
    }
    assertThat(countAndSum(catalog, table)).isEqualTo(countAndSum(catalog, once));
  }

  /** The month's rows whose {@code from} lies in {@code [from, to)}. */
  private static List<Object[]> between(Instant from, Instant to) {
    return rows.stream()
        .filter(r -> !((Instant) r[4]).isBefore(from) && ((Instant) r[4]).isBefore(to))
        .toList();
  }

  /** Starts the importing child and kills it with {@code kill -9} where {@code at} says. */
  private static void killMidway(KilledAt at, TableDefinition table, TestDatabase db)
      throws Exception {
    ChildArgs args =
        new ChildArgs(db, warehouse, table.name(), LAG, GRACE)
            .put("chunkRows", Integer.toString(CHUNK_ROWS))
            .put("file", file.toString())
            .put("now", NOW.toString());
    Path log = log(table.name());
    if (at == KilledAt.BETWEEN_CHUNKS) {
      Child child = Child.start(ImportChild.class, log, args.put("hangAfter", "2").list());
      child.await("CHUNK 2 ", 180);
      child.kill();
      return;
    }
    Path go = scratch.resolve(table.name() + ".go");
    Child child =
        Child.start(
            ImportChild.class,
            log,
            args.put("pauseAfter", "1").put("goFile", go.toString()).list());
    child.await("PAUSED", 180);
    Instant w = d.cold.createTable(table).watermark();
    try (Connection lock = db.connect()) {
      lock.setAutoCommit(false);
      try (PreparedStatement ps =
          lock.prepareStatement(
              "SELECT metadata_location FROM iceberg_tables WHERE table_name = ? FOR UPDATE")) {
        ps.setString(1, table.name());
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).as("the catalog row of " + table.name()).isTrue();
        }
      }
      Files.createFile(go);
      awaitCommitHeld(db, table, w);
      child.kill();
      // the held UPDATE would go through once the lock is released: end it first
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type ="
                + " 'Lock' AND query LIKE 'UPDATE%iceberg_tables%'");
      }
      awaitNoCommitWaiting(db);
      lock.rollback();
    }
  }

  /** Waits until the child raised the floor above W and its catalog commit waits for the lock. */
  private static void awaitCommitHeld(TestDatabase db, TableDefinition table, Instant w)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!(d.hot.partitions().floor(table).isAfter(w) && commitsWaiting(db) > 0)) {
      assertThat(System.nanoTime())
          .as("the child's commit to wait on the lock")
          .isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static void awaitNoCommitWaiting(TestDatabase db) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (commitsWaiting(db) > 0) {
      assertThat(System.nanoTime()).as("the held commit to end").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** Waits until the killed child's backend is gone and with it its archival lease. */
  private static void awaitLeaseReleased(TestDatabase db) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try (Connection c = db.connect();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'")) {
        rs.next();
        if (rs.getLong(1) == 0) {
          return;
        }
      }
      assertThat(System.nanoTime()).as("the killed child's lease to go").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static long commitsWaiting(TestDatabase db) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE query LIKE 'UPDATE%iceberg_tables%'"
                    + " AND state = 'active'")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * A write to the range after the kill, before the re-run. With the floor above W, a reading in
   * {@code [W, floor)} is refused ({@code LOCK_TIMEOUT}, as while a window is archived) and lands
   * nowhere; between chunks, a redelivery of a committed reading (at its {@code recorded_at}, so
   * under its arrival version) is a cold {@code DUPLICATE}.
   */
  private static void writeBeforeTheRerun(
      KilledAt at, MeterCatalog catalog, TableDefinition table, Instant w, Instant floor) {
    if (at == KilledAt.BEFORE_WINDOW_COMMIT) {
      Reading inside = ImportCsv.quarterHour(1, w, "1.5");
      assertThatThrownBy(() -> catalog.table(table.name()).append(List.of(inside), NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
                assertThat(e.isRetryable()).isTrue();
              });
      return;
    }
    Reading committed = ImportCsv.quarterHour(1, MARCH, value(1, 0));
    WriteResult r =
        catalog.table(table.name()).append(List.of(committed), RECORDED); // same version
    assertThat(r.outcomes()).containsExactly(WriteOutcome.DUPLICATE);
    assertThat(r.tiers()).containsExactly(Tier.COLD);
  }

  /** The month, sorted by {@code from}: every quarter-hour of every meter. */
  private static List<Object[]> month(TableDefinition table) {
    List<Object[]> all = new ArrayList<>();
    Instant recorded = RECORDED;
    int i = 0;
    for (Instant t = MARCH; t.isBefore(APRIL); t = t.plus(Duration.ofMinutes(15)), i++) {
      for (int meter = 1; meter <= METERS; meter++) {
        StoredReading s =
            StoredReading.accept(ImportCsv.quarterHour(meter, t, value(meter, i)), recorded);
        all.add(StoredRow.of(table, s));
      }
    }
    return all;
  }

  private static String value(int meter, int i) {
    return meter + "." + String.format("%06d", (i * 7919L + meter) % 1_000_000);
  }

  private static String countAndSum(MeterCatalog catalog, TableDefinition table)
      throws SQLException {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM \"" + table.name() + "\"")) {
      rs.next();
      return rs.getLong(1) + " " + rs.getBigDecimal(2).toPlainString();
    }
  }

  private static Path log(String name) throws IOException {
    return Files.createDirectories(Path.of("target", "child-logs"))
        .resolve("ImportCrashIT-" + name + ".log");
  }
}
