package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.nio.file.Path;
import java.time.Instant;
import java.time.Period;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.meterstore.cold.internal.IcebergColdTable;
import org.meterstore.cold.internal.commit.InterceptingTableOperations;
import org.meterstore.cold.snapshot.ExpiryResult;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** W survives foreign commits, expiry and re-stamping, and is never invented. */
@ExtendWith(PostgresExtension.class)
class WatermarkIT {
  /** Far enough ahead that every snapshot written by the test is older than ten years. */
  static final Instant LATER = Instant.parse("2100-01-01T00:00:00Z");

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

  private ColdTable archivedDay1(String name) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 2, DAY1, DAY2, 60));
    return table;
  }

  @Test
  void foreignAppendsAndRewritesDoNotChangeTheWatermarkRead() {
    ColdTable table = archivedDay1("foreign");
    Table iceberg = table.icebergTable();
    long rows = ColdFixtures.count(table.read());

    ForeignEngine.append(
        iceberg, table.definition(), ColdFixtures.rows(table.definition(), 1, DAY1, DAY2, 60));
    ForeignEngine.compact(iceberg, table.definition());

    assertThat(table.watermark()).isEqualTo(DAY2);
    List<SnapshotInfo> snapshots = table.snapshots();
    assertThat(snapshots).hasSize(3);
    assertThat(snapshots).extracting(SnapshotInfo::watermark).containsOnly(DAY2);
    assertThat(snapshots)
        .extracting(SnapshotInfo::ownWatermark)
        .containsExactly(true, false, false);
    assertThat(snapshots.get(2).operation()).isEqualTo("replace");
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows + 24);
  }

  @Test
  void expiringTheSnapshotThatFirstCarriedTheWatermarkKeepsTheSameWatermark() {
    ColdTable table = archivedDay1("expired_origin");
    long firstCarrier = table.snapshots().get(0).snapshotId();
    ForeignEngine.compact(table.icebergTable(), table.definition());
    long rows = ColdFixtures.count(table.read());

    ExpiryResult result =
        table.expireSnapshots(
            LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1));

    assertThat(result.restamped()).isTrue();
    assertThat(result.expiredSnapshotIds()).contains(firstCarrier);
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.snapshots().get(0).ownWatermark()).isTrue();
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows);
  }

  @Test
  void aForeignCommitLandingRightAfterTheRestampCannotStrandTheWatermark() {
    ColdTable table = archivedDay1("restamp_then_foreign");
    ForeignEngine.compact(table.icebergTable(), table.definition());
    ColdTable foreign = store.createTable(table.definition());
    AtomicBoolean once = new AtomicBoolean();
    ((IcebergColdTable) table)
        .access()
        .decorate(
            ops ->
                new InterceptingTableOperations(
                    ops,
                    (base, next, commit) -> {
                      commit.run();
                      if (once.compareAndSet(false, true)) {
                        ForeignEngine.append(
                            foreign.icebergTable(),
                            table.definition(),
                            ColdFixtures.rows(table.definition(), 1, DAY1, DAY2, 120));
                      }
                    }));

    ExpiryResult result =
        table.expireSnapshots(
            LATER, TablePolicy.DEFAULTS.withSnapshotRetention(Period.ofYears(10), 1));

    assertThat(result.restamped()).isTrue();
    assertThat(table.snapshots()).hasSize(2);
    assertThat(table.snapshots().get(1).ownWatermark()).isFalse();
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  @Test
  void aForeignExpiryWithoutRestampIsAnInvariantViolationNotTheEpoch() {
    ColdTable table = archivedDay1("foreign_expiry");
    Table iceberg = table.icebergTable();
    long carrier = iceberg.currentSnapshot().snapshotId();
    long foreign =
        ForeignEngine.append(
            iceberg, table.definition(), ColdFixtures.rows(table.definition(), 1, DAY1, DAY2, 60));
    iceberg.expireSnapshots().expireSnapshotId(carrier).commit();

    assertThatThrownBy(table::watermark)
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED))
        .hasMessageContaining("foreign_expiry")
        .hasMessageContaining(Long.toString(foreign))
        .hasMessageContaining(Long.toString(carrier));
    assertThatThrownBy(() -> table.reassertWatermark(NOW))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("no longer exists");
  }

  @Test
  void reassertIsANoOpWhenTheCurrentSnapshotCarriesTheWatermark() {
    ColdTable table = archivedDay1("reassert_noop");
    assertThat(table.reassertWatermark(NOW)).isFalse();
    assertThat(table.snapshots()).hasSize(1);
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  @Test
  void reassertStampsTheInheritedWatermarkOntoAForeignSnapshotOnce() {
    ColdTable table = archivedDay1("reassert_foreign");
    ForeignEngine.compact(table.icebergTable(), table.definition());

    assertThat(table.reassertWatermark(NOW)).isTrue();
    assertThat(table.reassertWatermark(NOW)).isFalse();

    List<SnapshotInfo> snapshots = table.snapshots();
    assertThat(snapshots).hasSize(3);
    SnapshotInfo stamp = snapshots.get(2);
    assertThat(stamp.ownWatermark()).isTrue();
    assertThat(stamp.watermark()).isEqualTo(DAY2);
    assertThat(stamp.meterstoreOperation()).isEqualTo("restamp");
    assertThat(stamp.totalRows()).isEqualTo(snapshots.get(1).totalRows());
    assertThat(table.watermark()).isEqualTo(DAY2);
  }

  @Test
  void reassertCanNeverMoveTheWatermarkBackWhenAnArchivalWinsMeanwhile() {
    ColdTable table = archivedDay1("reassert_race");
    ForeignEngine.compact(table.icebergTable(), table.definition());
    ColdTable archiver = store.createTable(table.definition());
    AtomicBoolean raced = new AtomicBoolean();
    ((IcebergColdTable) table)
        .access()
        .decorate(
            ops ->
                new InterceptingTableOperations(
                    ops,
                    (base, next, commit) -> {
                      if (raced.compareAndSet(false, true)) {
                        archiveDay2(archiver);
                      }
                      commit.run();
                    }));

    boolean stamped = table.reassertWatermark(NOW);

    assertThat(raced).isTrue();
    assertThat(stamped).isFalse();
    assertThat(table.watermark()).isEqualTo(DAY3);
    assertThat(table.snapshots())
        .extracting(SnapshotInfo::meterstoreOperation)
        .doesNotContain("restamp");
  }

  /**
   * The same race one step earlier: the archival lands after the re-stamp read W, when Iceberg
   * refreshes the table to build the stamp, which it would then build on the archival with the old
   * W.
   */
  @Test
  void anArchivalLandingAfterTheRestampReadWDoesNotMoveWBack() {
    ColdTable table = archivedDay1("reassert_early_race");
    ForeignEngine.compact(table.icebergTable(), table.definition());
    ColdTable archiver = store.createTable(table.definition());
    AtomicBoolean raced = new AtomicBoolean();
    ((IcebergColdTable) table)
        .access()
        .decorate(
            ops ->
                new Forwarding.Operations(ops) {
                  @Override
                  public org.apache.iceberg.TableMetadata refresh() {
                    if (raced.compareAndSet(false, true)) {
                      archiveDay2(archiver);
                    }
                    return super.refresh();
                  }
                });

    boolean stamped = table.reassertWatermark(NOW);

    assertThat(raced).isTrue();
    assertThat(stamped).isFalse();
    assertThat(table.watermark()).isEqualTo(DAY3);
    assertThat(table.snapshots())
        .extracting(SnapshotInfo::meterstoreOperation)
        .doesNotContain("restamp");
  }

  /** Another process's archival of day 2 (one meter): W becomes day 3. */
  private static void archiveDay2(ColdTable archiver) {
    archiver.archive(
        new ArchiveRequest(DAY2, DAY3, NOW, 2),
        ColdFixtures.rows(archiver.definition(), 1, DAY2, DAY3, 60));
  }
}
