package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.internal.stamp.SnapshotChain;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The one policy for a missing parent, proved for every caller of the parent walk: a foreign tool
 * expired the snapshot that carried W without re-stamping first, so the current (foreign) snapshot
 * carries no W and its parent is gone. Every decision refuses with {@code INVARIANT_VIOLATED} and
 * writes nothing; the listing an operator repairs from shows W as unknown instead of failing.
 */
@ExtendWith(PostgresExtension.class)
class BrokenChainIT {
  @TempDir Path warehouse;
  private ColdStore store;
  private ColdTable table;
  private long carrier;
  private long foreign;

  @BeforeEach
  void breakTheChain(TestDatabase db, TestInfo test) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
    String name = "broken_" + Math.abs(test.getTestMethod().orElseThrow().getName().hashCode());
    TableDefinition def = TableDefinition.interval(name);
    table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 2, DAY1, DAY2, 60));
    Table iceberg = table.icebergTable();
    carrier = iceberg.currentSnapshot().snapshotId();
    foreign = ForeignEngine.append(iceberg, def, ColdFixtures.rows(def, 1, DAY1, DAY2, 60));
    iceberg.expireSnapshots().expireSnapshotId(carrier).commit();
  }

  @AfterEach
  void close() {
    store.close();
  }

  private void refused(ThrowingCallable call) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED))
        .hasMessageContaining(Long.toString(foreign))
        .hasMessageContaining(Long.toString(carrier))
        .hasMessageContaining("no longer exists");
  }

  @Test
  void everyDecisionRefusesAndWritesNothing() {
    TableDefinition def = table.definition();
    refused(table::watermark);
    refused(() -> table.watermarkAt(foreign));
    refused(
        () ->
            table.archive(
                new ArchiveRequest(DAY2, DAY3, NOW, 2), ColdFixtures.rows(def, 2, DAY2, DAY3, 60)));
    refused(
        () ->
            table.importWindow(
                new ArchiveRequest(DAY2, DAY3, NOW, 2),
                List.<Object[]>of(
                    StoredRow.of(
                        def,
                        ColdFixtures.stored(
                            ColdFixtures.malo(7), DAY2, "1.000", "20260105000000"))),
                Encoders.CALLER,
                () -> true));
    refused(
        () ->
            table.appendCorrections(
                List.of(ColdFixtures.stored(ColdFixtures.malo(7), DAY1, "1.000", "20260105000000")),
                NOW));
    refused(() -> table.compact(NOW, 2, 10, () -> true));
    refused(() -> table.reassertWatermark(NOW));
    refused(() -> table.expireSnapshots(WatermarkIT.LATER, TablePolicy.DEFAULTS, Set.of()));

    assertThat(table.icebergTable().currentSnapshot().snapshotId()).isEqualTo(foreign);
    assertThat(table.snapshots()).hasSize(1);
  }

  @Test
  void theListingShowsTheWatermarkAsUnknown() {
    List<SnapshotInfo> snapshots = table.snapshots();
    assertThat(snapshots).extracting(SnapshotInfo::snapshotId).containsExactly(foreign);
    assertThat(snapshots.get(0).watermark()).isNull();
    assertThat(snapshots.get(0).ownWatermark()).isFalse();
  }

  @Test
  void findingACommitOfUnknownOutcomeRefusesToCrossTheGapButStopsAtItsStart() {
    Table iceberg = table.icebergTable();
    Snapshot current = iceberg.currentSnapshot();
    SnapshotChain chain = SnapshotChain.of(iceberg, table.definition().name());
    // the attempt started before the gap: whether it landed cannot be known
    refused(() -> chain.findCommit(current, "a-commit-id", carrier));
    refused(() -> chain.findCommit(current, "a-commit-id", null));
    // the attempt started at the current snapshot: nothing after it, and no need to look further
    assertThat(chain.findCommit(current, "a-commit-id", foreign)).isNull();
  }
}
