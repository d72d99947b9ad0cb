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
import java.time.Instant;
import java.time.Period;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.snapshot.ExpiryResult;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotOrder;
import org.meterstore.cold.snapshot.SnapshotTag;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** Snapshot order, tags as settlement pins, and expiry by MeterStore's policy alone. */
@ExtendWith(PostgresExtension.class)
class SnapshotAndExpiryIT {
  private static final Instant LATER = WatermarkIT.LATER;

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

  /** Four snapshots: archive day 1, a correction, a foreign append, archive day 2. */
  private ColdTable history(String name) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 2, DAY1, DAY2, 60));
    table.appendCorrections(List.of(stored(malo(7), DAY1, "3", "20260105000000")), NOW);
    ForeignEngine.append(table.icebergTable(), def, ColdFixtures.rows(def, 1, DAY1, DAY2, 240));
    table.archive(
        new ArchiveRequest(DAY2, DAY3, NOW, 2), ColdFixtures.rows(def, 2, DAY2, DAY3, 60));
    return table;
  }

  @Test
  void snapshotsAreOrderedBySequenceNumberWhateverOrderTheyArriveIn() {
    ColdTable table = history("ordered");
    Table iceberg = table.icebergTable();
    List<Snapshot> chain = new ArrayList<>();
    for (Snapshot s = iceberg.currentSnapshot(); s != null; ) {
      chain.add(0, s);
      s = s.parentId() == null ? null : iceberg.snapshot(s.parentId());
    }
    Random random = new Random(20260101L);
    for (int round = 0; round < 20; round++) {
      List<Snapshot> shuffled = new ArrayList<>();
      iceberg.snapshots().forEach(shuffled::add);
      Collections.shuffle(shuffled, random);
      List<Snapshot> ordered =
          SnapshotOrder.bySequenceNumber(shuffled, Snapshot::sequenceNumber, Snapshot::snapshotId);
      assertThat(ordered)
          .extracting(Snapshot::snapshotId)
          .containsExactlyElementsOf(chain.stream().map(Snapshot::snapshotId).toList());
    }
    List<SnapshotInfo> infos = table.snapshots();
    assertThat(infos).extracting(SnapshotInfo::sequenceNumber).isSorted().doesNotHaveDuplicates();
    assertThat(infos)
        .extracting(SnapshotInfo::meterstoreOperation)
        .containsExactly("archive", "correction", null, "archive");
    assertThat(infos).extracting(SnapshotInfo::watermark).containsExactly(DAY2, DAY2, DAY2, DAY3);
  }

  @Test
  void aTaggedSnapshotSurvivesExpiryAndReadsBackRowForRow() {
    TableDefinition def = TableDefinition.interval("pinned");
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 3, DAY1, DAY2, 30));
    long pinned = table.tagSnapshot("settlement-2026-01");
    List<String> settled = ColdFixtures.canonical(table.read());
    table.appendCorrections(List.of(stored(malo(1), DAY1, "42", "20260105000000")), NOW);
    long untagged = table.icebergTable().currentSnapshot().snapshotId();
    table.archive(
        new ArchiveRequest(DAY2, DAY3, NOW, 2), ColdFixtures.rows(def, 3, DAY2, DAY3, 30));

    ExpiryResult result =
        table.expireSnapshots(
            LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1));

    assertThat(result.expiredSnapshotIds()).containsExactly(untagged);
    assertThat(table.snapshots()).extracting(SnapshotInfo::snapshotId).contains(pinned);
    assertThat(table.snapshots().get(0).tags()).containsExactly("settlement-2026-01");
    assertThat(ColdFixtures.canonical(table.readTag("settlement-2026-01"))).isEqualTo(settled);
    assertThat(ColdFixtures.canonical(table.readSnapshot(pinned))).isEqualTo(settled);
    assertThatThrownBy(() -> table.readSnapshot(untagged))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.QUERY))
        .hasMessageContaining(Long.toString(untagged));
    assertThat(table.watermark()).isEqualTo(DAY3);
  }

  @Test
  void tagsAreListedWithTheirStampAndUntaggingLetsExpiryRemoveTheSnapshot() {
    ColdTable table = history("untagged");
    List<SnapshotInfo> before = table.snapshots();
    long first = before.get(0).snapshotId();
    assertThat(table.tagSnapshot("settlement-2026-01", first)).isEqualTo(first);
    long current = table.tagSnapshot("settlement-2026-01-02");

    assertThat(table.tags())
        .extracting(SnapshotTag::name, SnapshotTag::snapshotId, SnapshotTag::watermark)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("settlement-2026-01", first, DAY2),
            org.assertj.core.groups.Tuple.tuple("settlement-2026-01-02", current, DAY3));
    assertThat(table.tags().get(0).archivedAt()).isEqualTo(NOW);
    assertThat(table.tags().get(0).totalRows()).isEqualTo(before.get(0).totalRows());

    assertInvalid(() -> table.tagSnapshot("settlement-2026-01"), "already tags snapshot " + first);
    assertInvalid(() -> table.tagSnapshot("bad name"), "letters, digits");
    assertInvalid(() -> table.tagSnapshot("main"), "main branch");
    assertInvalid(() -> table.tagSnapshot("x", 42L), "existing snapshot", "42");
    assertInvalid(() -> table.untagSnapshot("never-tagged"), "an existing tag");

    TablePolicy keepOne = TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1);
    table.expireSnapshots(LATER, keepOne);
    assertThat(table.snapshots()).extracting(SnapshotInfo::snapshotId).contains(first);
    assertThat(table.untagSnapshot("settlement-2026-01")).isEqualTo(first);
    assertThat(table.tags()).extracting(SnapshotTag::name).containsExactly("settlement-2026-01-02");
    table.expireSnapshots(LATER, keepOne);
    assertThat(table.snapshots()).extracting(SnapshotInfo::snapshotId).doesNotContain(first);
  }

  private static void assertInvalid(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String... parts) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
              assertThat(e.isRetryable()).isFalse();
            })
        .hasMessageContainingAll(parts);
  }

  @Test
  void expiryKeepsTheNewestMinimumAndNothingInsideTheRetention() {
    ColdTable table = history("retained");
    List<Long> ids = table.snapshots().stream().map(SnapshotInfo::snapshotId).toList();

    ExpiryResult inside = table.expireSnapshots(NOW, TablePolicy.DEFAULTS);
    assertThat(inside.expiredSnapshotIds()).isEmpty();
    assertThat(inside.restamped()).isFalse();

    ExpiryResult keepThree =
        table.expireSnapshots(
            LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 3));
    assertThat(keepThree.expiredSnapshotIds()).containsExactly(ids.get(0));
    assertThat(table.snapshots())
        .extracting(SnapshotInfo::snapshotId)
        .containsExactlyElementsOf(ids.subList(1, 4));
    assertThat(table.watermark()).isEqualTo(DAY3);
  }

  /**
   * A retained snapshot that carries no W (a foreign commit a state pin or a view version reads)
   * keeps its ancestors up to the one carrying W, or its W could no longer be read.
   */
  @Test
  void aRetainedForeignSnapshotKeepsItsChainToTheWatermark() {
    ColdTable table = history("foreign_pinned");
    List<Long> ids = table.snapshots().stream().map(SnapshotInfo::snapshotId).toList();
    long foreign = ids.get(2);

    ExpiryResult r =
        table.expireSnapshots(
            LATER,
            TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1),
            Set.of(foreign));

    assertThat(r.expiredSnapshotIds()).containsExactly(ids.get(0));
    assertThat(table.watermarkAt(foreign)).isEqualTo(DAY2);
    assertThat(table.watermark()).isEqualTo(DAY3);
  }

  @Test
  void theTablesHistoryExpirePropertiesCannotWidenExpiry() {
    ColdTable table = history("widened_by_properties");
    table
        .icebergTable()
        .updateProperties()
        .set("history.expire.max-snapshot-age-ms", "1")
        .set("history.expire.min-snapshots-to-keep", "1")
        .commit();
    List<Long> ids = table.snapshots().stream().map(SnapshotInfo::snapshotId).toList();

    ExpiryResult result =
        table.expireSnapshots(
            LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 2));

    assertThat(result.expiredSnapshotIds()).containsExactly(ids.get(0), ids.get(1));
    assertThat(table.snapshots())
        .extracting(SnapshotInfo::snapshotId)
        .containsExactly(ids.get(2), ids.get(3));
  }

  @Test
  void aBranchRetentionThatWouldWidenExpiryRefusesTheWholeRun() {
    ColdTable table = history("widened_by_ref");
    table.icebergTable().manageSnapshots().setMaxSnapshotAgeMs("main", 1).commit();
    int before = table.snapshots().size();

    assertThatThrownBy(
            () ->
                table.expireSnapshots(
                    LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 2)))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED))
        .hasMessageContaining("widened_by_ref")
        .hasMessageContaining("nothing was expired");
    assertThat(table.snapshots()).hasSize(before);
  }

  @Test
  void aForeignTagThatIcebergWouldDropForItsAgeRefusesTheWholeRun() {
    ColdTable table = history("aged_tag");
    Table iceberg = table.icebergTable();
    long first = table.snapshots().get(0).snapshotId();
    iceberg.manageSnapshots().createTag("foreign-tag", first).commit();
    iceberg.updateProperties().set("history.expire.max-ref-age-ms", "1").commit();

    assertThatThrownBy(
            () ->
                table.expireSnapshots(
                    LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1)))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("foreign-tag");
    assertThat(table.icebergTable().refs()).containsKey("foreign-tag");
  }
}
