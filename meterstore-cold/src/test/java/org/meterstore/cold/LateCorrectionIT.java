package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;
import static org.meterstore.cold.ColdFixtures.malo;
import static org.meterstore.cold.ColdFixtures.stored;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.internal.IcebergColdTable;
import org.meterstore.cold.internal.commit.InterceptingTableOperations;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Late corrections below W: appended without moving W, redeliveries skipped, restatements refused.
 */
@ExtendWith(PostgresExtension.class)
class LateCorrectionIT {
  private static final String ARCHIVED_VERSION = "20260102000000";

  /** A quarter-hour that {@link ColdFixtures#rows} archived for every meter. */
  private static final Instant HOUR1 = DAY2.minus(Duration.ofMinutes(15));

  @TempDir Path warehouse;
  private ColdStore store;

  @BeforeEach
  void open(TestDatabase db) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Two meters, hourly quarter-hours of day 1, archived: W = day 2. */
  private ColdTable archived(String name) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 2, DAY1, DAY2, 60));
    return table;
  }

  /**
   * A correction batch of a whole fleet: one reading for each of 20,000 locations. Its stored-row
   * scan filters by {@code malo_id IN (20,000 values)}; that list used to become a chain of 20,000
   * nested ORs in the page predicate, and walking it overflowed the stack (a {@code
   * StackOverflowError}, found by a 20,000-meter import completing a day through corrections).
   */
  @Test
  void aCorrectionOfTwentyThousandLocationsIsAppended() {
    TableDefinition def = TableDefinition.interval("fleet");
    ColdTable table = store.createTable(def);
    int meters = 20_000;
    List<Object[]> archived = new ArrayList<>(meters);
    for (int m = 1; m <= meters; m++) {
      archived.add(StoredRow.of(def, stored(malo(m), HOUR1, "1", ARCHIVED_VERSION)));
    }
    table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 1), archived);
    List<StoredReading> corrections = new ArrayList<>(meters);
    for (int m = 1; m <= meters; m++) {
      corrections.add(stored(malo(m), HOUR1, "2", "20260105000000"));
    }

    CorrectionResult result = table.appendCorrections(corrections, NOW);

    assertThat(result.outcomes()).hasSize(meters).containsOnly(WriteOutcome.SUPERSEDED);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(2L * meters);
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  @Test
  void correctionsAreAppendedBelowTheWatermarkWithoutMovingIt() {
    ColdTable table = archived("appended");
    long before = ColdFixtures.count(table.read());

    CorrectionResult result =
        table.appendCorrections(
            List.of(
                stored(malo(1), HOUR1, "99.5", "20260105000000"),
                stored(malo(3), DAY1, "1", "20260105000000"),
                stored(malo(2), HOUR1, "0.5", "20260101000000")),
            NOW);

    assertThat(result.outcomes())
        .containsExactly(WriteOutcome.SUPERSEDED, WriteOutcome.INSERTED, WriteOutcome.SHADOWED);
    assertThat(result.appendedRows()).isEqualTo(3);
    assertThat(table.watermark()).isEqualTo(DAY2);
    SnapshotInfo current = table.snapshots().get(1);
    assertThat(current.snapshotId()).isEqualTo(result.snapshotId());
    assertThat(current.ownWatermark()).isTrue();
    assertThat(current.watermark()).isEqualTo(DAY2);
    assertThat(current.meterstoreOperation()).isEqualTo("correction");
    assertThat(ColdFixtures.count(table.read())).isEqualTo(before + 3);
  }

  /**
   * An archival commit that lands after the correction read W and before it commits (here: while
   * the correction writes its file) used to be built upon by Iceberg with the correction's old W in
   * the new snapshot: W moved back and the window just archived fell out of the live view. The
   * correction must instead retry on the new snapshot and carry the new W.
   */
  @Test
  void anArchivalCommitWhileACorrectionIsWrittenDoesNotMoveWBack() {
    ColdTable table = archived("raced");
    TableDefinition def = table.definition();
    AtomicBoolean fired = new AtomicBoolean();
    ((IcebergColdTable) table)
        .access()
        .decorate(
            ops ->
                new Forwarding.Operations(ops) {
                  @Override
                  public org.apache.iceberg.io.FileIO io() {
                    return new Forwarding.Io(super.io()) {
                      @Override
                      public org.apache.iceberg.io.OutputFile newOutputFile(String path) {
                        if (path.endsWith(".parquet") && fired.compareAndSet(false, true)) {
                          // another process's archival of day 2, committed through its own table
                          store
                              .table(def)
                              .icebergTable()
                              .newFastAppend()
                              .set(
                                  org.meterstore.cold.commit.SummaryKeys.WATERMARK, DAY3.toString())
                              .commit();
                        }
                        return super.newOutputFile(path);
                      }
                    };
                  }
                });

    CorrectionResult result =
        table.appendCorrections(List.of(stored(malo(1), HOUR1, "99.5", "20260105000000")), NOW);

    assertThat(fired).isTrue();
    assertThat(result.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
    assertThat(table.watermark()).as("W never moves back").isEqualTo(DAY3);
    List<SnapshotInfo> history = table.snapshots();
    for (int i = 1; i < history.size(); i++) {
      assertThat(history.get(i).watermark()).isAfterOrEqualTo(history.get(i - 1).watermark());
    }
    assertThat(history.get(history.size() - 1).meterstoreOperation()).isEqualTo("correction");
  }

  @Test
  void aRedeliveredCorrectionIsADuplicateAndNotASecondRow() {
    ColdTable table = archived("redelivered");
    StoredReading correction = stored(malo(1), HOUR1, "99.5", "20260105000000");
    table.appendCorrections(List.of(correction), NOW);
    long rows = ColdFixtures.count(table.read());
    int snapshots = table.snapshots().size();

    CorrectionResult again =
        table.appendCorrections(
            List.of(correction, stored(malo(2), HOUR1, value(2, HOUR1), ARCHIVED_VERSION)), NOW);

    assertThat(again.outcomes()).containsExactly(WriteOutcome.DUPLICATE, WriteOutcome.DUPLICATE);
    assertThat(again.appendedRows()).isZero();
    assertThat(again.snapshotId()).isEqualTo(-1);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows);
    assertThat(table.snapshots()).hasSize(snapshots);
  }

  @Test
  void aReadingTwiceInOneBatchIsAppendedOnce() {
    ColdTable table = archived("twice_in_batch");
    StoredReading correction = stored(malo(1), HOUR1, "7", "20260105000000");
    long rows = ColdFixtures.count(table.read());

    CorrectionResult result = table.appendCorrections(List.of(correction, correction), NOW);

    assertThat(result.outcomes()).containsExactly(WriteOutcome.SUPERSEDED, WriteOutcome.DUPLICATE);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows + 1);
  }

  @Test
  void aValueRestatedUnderTheSameVersionIsAnIntegrityViolationAndNothingIsAppended() {
    ColdTable table = archived("restated");
    long rows = ColdFixtures.count(table.read());

    assertThatThrownBy(
            () ->
                table.appendCorrections(
                    List.of(
                        stored(malo(1), HOUR1, "99.5", "20260105000000"),
                        stored(malo(2), HOUR1, "12345", ARCHIVED_VERSION)),
                    NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION))
        .hasMessageContaining("restated")
        .hasMessageContaining(malo(2))
        .hasMessageContaining("version " + ARCHIVED_VERSION);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows);
    assertThat(table.snapshots()).hasSize(1);
  }

  @Test
  void aCorrectionOverlappingAStoredSpanOfTheSameVersionIsRefusedAndNothingIsAppended() {
    ColdTable table = archived("overlap");
    long rows = ColdFixtures.count(table.read());
    Instant storedStart = HOUR1.minus(Duration.ofHours(1));
    Instant shifted = storedStart.plus(Duration.ofMinutes(5));
    assertThatThrownBy(
            () ->
                table.appendCorrections(
                    List.of(stored(malo(1), shifted, "1", ARCHIVED_VERSION)), NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION))
        .hasMessageContaining("spans_do_not_overlap")
        .hasMessageContaining(malo(1))
        .hasMessageContaining(storedStart.toString());
    // Two new spans of one new version that overlap each other inside one batch.
    assertThatThrownBy(
            () ->
                table.appendCorrections(
                    List.of(
                        stored(malo(1), shifted, "1", "20260105000000"),
                        stored(
                            malo(1), shifted.plus(Duration.ofMinutes(10)), "1", "20260105000000")),
                    NOW))
        .hasMessageContaining("spans_do_not_overlap");
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows);
    assertThat(table.snapshots()).hasSize(1);

    // The same shifted span under another version is a different delivery: accepted.
    CorrectionResult other =
        table.appendCorrections(List.of(stored(malo(1), shifted, "1", "20260105000000")), NOW);
    assertThat(other.outcomes()).containsExactly(WriteOutcome.INSERTED);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows + 1);
  }

  @Test
  void aCorrectionAtOrAboveTheWatermarkIsRefused() {
    ColdTable table = archived("above_w");
    assertThatThrownBy(
            () ->
                table.appendCorrections(List.of(stored(malo(1), DAY2, "1", "20260105000000")), NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("below W");
    assertThat(table.snapshots()).hasSize(1);
  }

  @Test
  void aRedeliveryRacingTheSameCorrectionIsReclassifiedAsADuplicateOnRetry() {
    ColdTable table = archived("racing_redelivery");
    ColdTable other = store.createTable(table.definition());
    StoredReading correction = stored(malo(1), HOUR1, "99.5", "20260105000000");
    long rows = ColdFixtures.count(table.read());
    AtomicBoolean raced = new AtomicBoolean();
    ((IcebergColdTable) table)
        .access()
        .decorate(
            ops ->
                new InterceptingTableOperations(
                    ops,
                    (base, next, commit) -> {
                      if (raced.compareAndSet(false, true)) {
                        other.appendCorrections(List.of(correction), NOW);
                      }
                      commit.run();
                    }));

    CorrectionResult result = table.appendCorrections(List.of(correction), NOW);

    assertThat(raced).isTrue();
    assertThat(result.outcomes()).containsExactly(WriteOutcome.DUPLICATE);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows + 1);
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  /** The value {@link ColdFixtures#rows} gives meter {@code m} at {@code t}. */
  private static String value(int m, Instant t) {
    return (m * 10 + (t.getEpochSecond() / 900) % 7) + ".125";
  }
}
