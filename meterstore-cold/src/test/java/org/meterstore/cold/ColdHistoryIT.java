package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;
import static org.meterstore.cold.ColdFixtures.malo;
import static org.meterstore.cold.ColdFixtures.stored;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchivalCommit;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.CorrectionResult;
import org.meterstore.cold.snapshot.ColdDataFile;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The typed reads of a cold table's history: W at a snapshot, archival commits, pinned views. */
@ExtendWith(PostgresExtension.class)
class ColdHistoryIT {
  private static final Instant LATER = NOW.plus(Duration.ofDays(1));

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

  private ArchiveResult archive(ColdTable table, Instant from, Instant to, int meters, long epoch) {
    return table.archive(
        new ArchiveRequest(from, to, NOW, epoch),
        ColdFixtures.rows(table.definition(), meters, from, to, 60));
  }

  @Test
  void watermarkAtReadsTheWatermarkEachSnapshotCarriesOrInherits() {
    ColdTable table = store.createTable(TableDefinition.interval("at_snapshot"));
    long first = archive(table, DAY1, DAY2, 2, 1).snapshotId();
    long second = archive(table, DAY2, DAY3, 1, 2).snapshotId();
    long foreign =
        ForeignEngine.append(
            table.icebergTable(),
            table.definition(),
            ColdFixtures.rows(table.definition(), 1, DAY1, DAY2, 60));

    assertThat(table.watermarkAt(first)).isEqualTo(DAY2);
    assertThat(table.watermarkAt(second)).isEqualTo(DAY3);
    assertThat(table.watermarkAt(foreign)).isEqualTo(DAY3);
    assertThat(table.watermark()).isEqualTo(DAY3);
    assertThatThrownBy(() -> table.watermarkAt(123456789L))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUERY))
        .hasMessageContaining("snapshot 123456789")
        .hasMessageContaining("at_snapshot")
        .hasMessageContaining("does not exist")
        .hasMessageContaining("system.snapshots");
  }

  @Test
  void archivalCommitsAreTheTwoArchivesNotTheCorrectionNorAForeignCommit() {
    ColdTable table = store.createTable(TableDefinition.interval("commits"));
    ArchiveResult first = archive(table, DAY1, DAY2, 2, 1);
    ArchiveResult second = archive(table, DAY2, DAY3, 1, 2);
    CorrectionResult correction =
        table.appendCorrections(
            List.of(stored(malo(1), DAY2.minus(Duration.ofMinutes(15)), "99.5", "20260105000000")),
            LATER);
    assertThat(correction.appendedRows()).isEqualTo(1);
    ForeignEngine.compact(table.icebergTable(), table.definition());

    List<ArchivalCommit> commits = table.archivalCommits();

    assertThat(commits)
        .extracting(ArchivalCommit::snapshotId)
        .containsExactly(first.snapshotId(), second.snapshotId());
    ArchivalCommit a = commits.get(0);
    assertThat(List.of(a.from(), a.to(), a.watermark(), a.archivedAt()))
        .containsExactly(DAY1, DAY2, DAY2, NOW);
    assertThat(a.rows()).isEqualTo(48);
    assertThat(a.digest()).isEqualTo(first.digest());
    assertThat(a.leaseEpoch()).isEqualTo(1);
    ArchivalCommit b = commits.get(1);
    assertThat(List.of(b.from(), b.to(), b.watermark())).containsExactly(DAY2, DAY3, DAY3);
    assertThat(b.rows()).isEqualTo(24);
    assertThat(b.digest()).isEqualTo(second.digest());
    assertThat(b.leaseEpoch()).isEqualTo(2);
    assertThat(b.sequenceNumber()).isGreaterThan(a.sequenceNumber());
    assertThat(a.covers(DAY1, DAY2)).isTrue();
    assertThat(a.covers(DAY1, DAY3)).isFalse();
  }

  @Test
  void aHoleInTheHistoryIsAnInvariantViolationNeverTheEpoch() {
    ColdTable table = store.createTable(TableDefinition.interval("hole"));
    long carrier = archive(table, DAY1, DAY2, 2, 1).snapshotId();
    Table iceberg = table.icebergTable();
    long foreign =
        ForeignEngine.append(
            iceberg, table.definition(), ColdFixtures.rows(table.definition(), 1, DAY1, DAY2, 60));
    iceberg.expireSnapshots().expireSnapshotId(carrier).commit();

    assertThatThrownBy(() -> table.watermarkAt(foreign))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageContaining("hole")
        .hasMessageContaining(Long.toString(foreign))
        .hasMessageContaining(Long.toString(carrier));
    assertThatThrownBy(() -> table.view(SnapshotSelector.current()))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED));
    assertThatThrownBy(() -> table.watermarkAt(carrier))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUERY))
        .hasMessageContaining("snapshot " + carrier);
    assertThat(table.archivalCommits()).isEmpty();
  }

  @Test
  void aViewStaysOnItsSnapshotWhileLaterCommitsLand() throws IOException {
    ColdTable table = store.createTable(TableDefinition.interval("pinned"));
    long pinned = archive(table, DAY1, DAY2, 2, 1).snapshotId();
    SnapshotView view = table.view(SnapshotSelector.current());
    archive(table, DAY2, DAY3, 1, 2);

    assertThat(view.snapshotId()).hasValue(pinned);
    assertThat(view.watermark()).isEqualTo(DAY2);
    List<ColdDataFile> files = view.dataFiles();
    assertThat(files).isNotEmpty();
    assertThat(files.stream().mapToLong(ColdDataFile::recordCount).sum()).isEqualTo(48);
    String malo = view.schema().columns().get(0).name();
    assertThat(count(view.readRecords(Expressions.alwaysTrue(), List.of(malo)))).isEqualTo(48);
    try (CloseableIterable<FileScanTask> tasks =
        view.planFilesWithColumnStats(Expressions.alwaysTrue())) {
      assertThat(tasks)
          .hasSize(files.size())
          .allSatisfy(t -> assertThat(t.file().lowerBounds()).isNotEmpty());
    }

    SnapshotView now = table.view(SnapshotSelector.current());
    assertThat(now.watermark()).isEqualTo(DAY3);
    assertThat(now.dataFiles().stream().mapToLong(ColdDataFile::recordCount).sum()).isEqualTo(72);
    table.tagSnapshot("settled", pinned);
    assertThat(table.view(SnapshotSelector.tag("settled")).snapshotId()).hasValue(pinned);
    assertThat(table.view(SnapshotSelector.snapshotId(pinned)).watermark()).isEqualTo(DAY2);
  }

  @Test
  void aViewOfATableWithoutSnapshotsIsEmptyAtTheEpoch() throws IOException {
    SnapshotView view =
        store.createTable(TableDefinition.interval("empty")).view(SnapshotSelector.current());

    assertThat(view.snapshotId()).isEmpty();
    assertThat(view.watermark()).isEqualTo(Instant.EPOCH);
    assertThat(view.dataFiles()).isEmpty();
    assertThat(count(view.readRecords(Expressions.alwaysTrue(), List.of("from")))).isZero();
    assertThatThrownBy(
            () ->
                store
                    .createTable(TableDefinition.interval("empty"))
                    .view(SnapshotSelector.tag("x")))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUERY))
        .hasMessageContaining("tag x");
  }

  private static long count(CloseableIterable<Record> records) throws IOException {
    try (records) {
      long n = 0;
      for (Record ignored : records) {
        n++;
      }
      return n;
    }
  }
}
