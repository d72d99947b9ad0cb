package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.maintenance.testing.Tally;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * A process appending through the façade is killed with {@code kill -9} at every step of the write
 * path ({@link AppendPoint}): after routing, after the hot part, after the cold part, and in the
 * re-route round after archival moved W under the batch. Exactly what had landed is stored (in one
 * tier, never below W in PostgreSQL); a fresh process retries the same batch — what had landed is
 * reported {@code DUPLICATE}, the rest lands — and then maintains the table to completion: the
 * reference model agrees with the tiers and with SQL to the last decimal, every window is committed
 * once and no partition is left behind below W.
 */
@ExtendWith(PostgresExtension.class)
class WriteCrashIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final long SEED = 16;
  private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant WRITTEN = Instant.parse("2026-03-04T08:00:00Z");

  /** Archives Mar 1 to Mar 3 (UTC days): W = {@link #CUT}. */
  private static final Instant ARCHIVED = Instant.parse("2026-03-05T00:00:00Z");

  private static final Instant CUT = Instant.parse("2026-03-04T00:00:00Z");

  /** The interrupted batch's {@code now}. */
  private static final Instant AT = Instant.parse("2026-03-05T12:00:00Z");

  /** Archival inside the append, at this {@code now}, archives Mar 4: W = {@link #MOVED}. */
  private static final Instant ARCHIVE_NOW = Instant.parse("2026-03-06T00:00:00Z");

  private static final Instant MOVED = Instant.parse("2026-03-05T00:00:00Z");

  /** The fresh process's maintenance: archives every window with readings, then reclaims. */
  private static final Instant FINAL = Instant.parse("2026-03-07T06:00:00Z");

  private static final Instant FINAL_W = Instant.parse("2026-03-06T00:00:00Z");

  @TempDir static Path warehouse;
  @TempDir static Path scratch;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  /** Which readings of the batch had landed when the process was killed. */
  enum Landed {
    NOTHING(r -> false),
    THE_HOT_PART(r -> !r.from().isBefore(CUT)),
    THE_COLD_PART(r -> r.from().isBefore(CUT)),
    BELOW_THE_MOVED_W(r -> r.from().isBefore(MOVED)),
    EVERYTHING(r -> true);

    final Predicate<Reading> landed;

    Landed(Predicate<Reading> landed) {
      this.landed = landed;
    }
  }

  /**
   * One crash: the batch, where archival commits a new W inside the append (or nowhere), where the
   * process is killed, and what had landed by then.
   */
  record Case(int id, CrashBatch batch, AppendPoint archiveAt, AppendPoint crashAt, Landed landed) {
    @Override
    public String toString() {
      return batch
          + (archiveAt == null ? "" : ", archival at " + archiveAt)
          + ", killed at "
          + crashAt
          + ": "
          + landed
          + " landed";
    }

    Instant watermarkAtCrash() {
      return archiveAt == null ? CUT : MOVED;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(1, CrashBatch.STRADDLING, null, AppendPoint.AFTER_ROUTING, Landed.NOTHING),
        new Case(2, CrashBatch.STRADDLING, null, AppendPoint.AFTER_HOT, Landed.THE_HOT_PART),
        new Case(3, CrashBatch.STRADDLING, null, AppendPoint.AFTER_COLD, Landed.EVERYTHING),
        new Case(4, CrashBatch.LATE, null, AppendPoint.AFTER_COLD, Landed.EVERYTHING),
        new Case(
            5,
            CrashBatch.STRADDLING,
            AppendPoint.AFTER_ROUTING,
            AppendPoint.AFTER_COLD,
            Landed.THE_COLD_PART),
        new Case(
            6,
            CrashBatch.STRADDLING,
            AppendPoint.AFTER_ROUTING,
            AppendPoint.AFTER_REROUTE,
            Landed.BELOW_THE_MOVED_W),
        new Case(
            7,
            CrashBatch.STRADDLING,
            AppendPoint.AFTER_HOT,
            AppendPoint.AFTER_REROUTE,
            Landed.EVERYTHING));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aFreshProcessRetriesTheBatchOfOneKilledAtEachStepAndNothingIsLostOrDoubled(
      Case c, TestDatabase db) throws Exception {
    String name = "write_crash_" + c.id();
    TableDefinition table = CatalogFixture.table(name, LAG, GRACE);
    ReferenceModel model = new ReferenceModel(table);
    Workload workload = CrashBatch.workload(SEED);
    writeOriginalsAndArchive(table, workload, model);
    List<Reading> batch = c.batch().of(workload, CUT);
    assertShape(c.batch(), batch);

    ChildArgs crash = args(db, name, c).put("crashAt", c.crashAt().name());
    if (c.archiveAt() != null) {
      crash.put("archiveAt", c.archiveAt().name()).put("archiveNow", ARCHIVE_NOW.toString());
    }
    Child crashing = Child.start(AppendChild.class, log(name, "killed"), crash.list());
    crashing.await("REACHED " + c.crashAt(), 180);
    crashing.kill();

    // exactly what had landed is stored, each version in one tier, nothing in PostgreSQL below W
    Instant w = d.cold.createTable(table).watermark();
    assertThat(w).isEqualTo(c.watermarkAtCrash());
    List<Reading> landed = batch.stream().filter(r -> c.landed().landed.test(r)).toList();
    if (!landed.isEmpty()) {
      model.write(landed, AT);
    }
    assertThat(d.tiers(table)).isEqualTo(Tally.expected(table, model));
    assertThat(d.hot.partitions().countRowsBelow(table, w)).isZero();

    List<WriteOutcome> expected = model.write(batch, AT);
    ChildArgs retry = args(db, name, c).cycles(FINAL, Duration.ofHours(2), 2).put("settle", "10");
    try (Child fresh = Child.start(AppendChild.class, log(name, "fresh"), retry.list())) {
      String[] result = fresh.await("RESULT", 180).split(" ");
      fresh.await("DONE", 180);
      assertThat(fresh.exit(60)).isZero();
      assertRetried(batch, landed, expected, result, w);
      assertThat(fresh.rows()).isNotEmpty().allMatch(r -> r[5].equals("0"));
      assertThat(fresh.rows()).noneMatch(r -> r[3].equals("FAILED") || r[3].equals("QUARANTINED"));
    }
    assertCompleted(table, model);
  }

  private static void writeOriginalsAndArchive(
      TableDefinition table, Workload workload, ReferenceModel model) {
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Reading> originals =
          CrashBatch.originals(workload).stream().flatMap(o -> o.readings().stream()).toList();
      WriteResult r = catalog.table(table.name()).append(originals, WRITTEN);
      assertThat(r.outcomes()).isEqualTo(model.write(originals, WRITTEN));
      assertThat(catalog.archive(ARCHIVED, 8).healthy()).isTrue();
      assertThat(catalog.table(table.name()).watermark()).isEqualTo(CUT);
    }
  }

  private static void assertShape(CrashBatch shape, List<Reading> batch) {
    assertThat(batch).anyMatch(r -> r.from().isBefore(CUT));
    if (shape == CrashBatch.STRADDLING) {
      assertThat(batch).anyMatch(r -> !r.from().isBefore(MOVED)); // hot even after W moved
      assertThat(batch)
          .anyMatch(r -> !r.from().isBefore(CUT) && r.from().isBefore(MOVED)); // re-routed
    } else {
      assertThat(batch).allMatch(r -> r.from().isBefore(CUT));
    }
  }

  /** The retry reports what had landed DUPLICATE, the rest as the model says, in its tier. */
  private static void assertRetried(
      List<Reading> batch,
      List<Reading> landed,
      List<WriteOutcome> expected,
      String[] result,
      Instant w) {
    List<String> outcomes = new ArrayList<>();
    List<String> wanted = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      Reading r = batch.get(i);
      String tier = r.from().isBefore(w) ? "COLD" : "HOT";
      wanted.add(i + " " + tier + ":" + expected.get(i));
      outcomes.add(i + " " + result[i + 1]);
      if (landed.contains(r)) {
        assertThat(expected.get(i)).isEqualTo(WriteOutcome.DUPLICATE);
      }
    }
    assertThat(result).hasSize(batch.size() + 1);
    assertThat(outcomes).isEqualTo(wanted);
    assertThat(Arrays.stream(result).filter(s -> s.endsWith(":DUPLICATE")).count())
        .isEqualTo(landed.size());
  }

  private static void assertCompleted(TableDefinition table, ReferenceModel model)
      throws Exception {
    assertThat(d.cold.createTable(table).watermark()).isEqualTo(FINAL_W);
    ArchiveCommits.assertEachWindowOnce(d.cold.createTable(table), FINAL_W);
    assertThat(d.tiers(table)).isEqualTo(Tally.expected(table, model));
    assertThat(d.hot.partitions().countRowsBelow(table, FINAL_W)).isZero();
    assertThat(d.hot.partitions().list(table))
        .noneMatch(p -> p.lowerBound().isBefore(FINAL_W))
        .noneMatch(p -> p.state() != PartitionState.ATTACHED);
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      ModelQuery.assertAgrees(catalog, table, model);
    }
  }

  private static ChildArgs args(TestDatabase db, String name, Case c) {
    return new ChildArgs(db, warehouse, name, LAG, GRACE)
        .put("mode", "batch")
        .put("batch", c.batch().name())
        .put("seed", Long.toString(SEED))
        .put("cut", CUT.toString())
        .put("at", AT.toString());
  }

  private static Path log(String name, String which) throws java.io.IOException {
    return java.nio.file.Files.createDirectories(Path.of("target", "child-logs"))
        .resolve("WriteCrashIT-" + name + "-" + which + ".log");
  }
}
