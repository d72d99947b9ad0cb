package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.maintenance.testing.Tally;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * The lease across processes: two separate JVMs run the loop against the same table for fourteen
 * cycles each, started together; every window is archived exactly once and the process that finds
 * the lease taken reports {@code LEASE_CONTENDED}. A run whose lease backend is terminated
 * mid-write cannot commit, and the next run resumes the window.
 */
@ExtendWith(PostgresExtension.class)
class TwoProcessesIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-20T00:00:00Z");
  private static final int LEASE_CLASS = 0x4d530010;

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

  @Test
  void twoProcessesArchiveEveryWindowExactlyOnceAndTheLoserReportsContention(TestDatabase db)
      throws Exception {
    TableDefinition table = CatalogFixture.table("zwei", LAG, Duration.ZERO);
    ReferenceModel model = write(table, 12, 11);
    Path go = scratch.resolve("go");
    List<Child> children = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ChildArgs args =
          new ChildArgs(db, warehouse, "zwei", LAG, Duration.ZERO)
              .cycles(Instant.parse("2026-03-03T06:00:00Z"), Duration.ofDays(1), 14)
              .put("holdMillis", "1000")
              .put("settle", "20")
              .put("goFile", go.toString());
      children.add(Child.start(scratch.resolve("zwei-" + i + ".log"), args.list()));
    }
    for (Child c : children) {
      c.await("READY", 120);
    }
    Files.createFile(go);
    List<String[]> rows = new ArrayList<>();
    for (Child c : children) {
      c.await("DONE", 300);
      assertThat(c.exit(60)).isZero();
      rows.addAll(c.rows());
      c.close();
    }

    assertThat(rows.stream().filter(r -> Integer.parseInt(r[1]) < 14)).hasSize(28);
    assertThat(rows).noneMatch(r -> r[3].equals("FAILED") || r[3].equals("QUARANTINED"));
    assertThat(rows).allMatch(r -> r[5].equals("0"));
    assertThat(rows).anyMatch(r -> r[3].equals("LEASE_CONTENDED"));
    int windows = rows.stream().mapToInt(r -> Integer.parseInt(r[4])).sum();
    ColdTable cold = d.cold.createTable(table);
    List<SnapshotInfo> archives = archives(cold);
    assertThat(archives).hasSize(windows);
    assertThat(archives.stream().map(SnapshotInfo::watermark).distinct()).hasSize(windows);
    assertThat(cold.watermark()).isEqualTo(Instant.parse("2026-03-15T00:00:00Z"));
    List<Long> epochs = leaseEpochs(cold, archives);
    assertThat(epochs).isSorted();
    assertThat(epochs.stream().distinct().count()).isGreaterThan(1);
    assertThat(d.coldRows(table)).isEqualTo(model.versions().size());
    assertThat(d.tiers(table)).isEqualTo(Tally.expected(table, model));
  }

  @Test
  void aRunWhoseLeaseBackendIsTerminatedMidWriteCannotCommit(TestDatabase db) throws Exception {
    TableDefinition table = CatalogFixture.table("verlust", LAG, Duration.ZERO);
    ReferenceModel model = write(table, 2, 12);
    AtomicBoolean terminated = new AtomicBoolean();
    MaintenanceBuilder loop =
        d.catalog(List.of(table), OpenTelemetry.noop()).maintenance().sourceChunkRows(50);
    FaultHook terminateOnce =
        (point, t, partition) -> {
          if (point == FaultPoint.BETWEEN_CHUNKS && terminated.compareAndSet(false, true)) {
            terminateLeaseBackend(db);
          }
        };
    Instant now = Instant.parse("2026-03-06T06:00:00Z");
    ColdTable cold = d.cold.createTable(table);

    TableOutcome lost =
        FaultInjection.during(terminateOnce, () -> loop.runOnce(now)).row("verlust").orElseThrow();

    assertThat(terminated).isTrue();
    assertThat(lost.status()).isEqualTo(Status.LEASE_CONTENDED);
    Instant w = cold.watermark();
    assertThat(archives(cold)).hasSize(lost.counts().windowsArchived());
    assertThat(d.hot.partitions().list(table))
        .filteredOn(p -> !p.lowerBound().isBefore(w) && p.state() == PartitionState.DETACHED)
        .hasSize(1);

    TableOutcome resumed = loop.runOnce(now).row("verlust").orElseThrow();
    assertThat(resumed.status()).isEqualTo(Status.ARCHIVED);
    assertThat(archives(cold).stream().map(SnapshotInfo::watermark).distinct())
        .hasSize(lost.counts().windowsArchived() + resumed.counts().windowsArchived());
    assertThat(d.coldRows(table)).isEqualTo(model.versions().size());
    assertThat(resumed.invariantViolations()).hasValue(0);
  }

  private static ReferenceModel write(TableDefinition table, int days, long seed) {
    d.create(List.of(table), WRITTEN);
    ReferenceModel model = new ReferenceModel(table);
    d.write(
        table,
        new Workload(10, LocalDate.of(2026, 3, 2), days, 0, 0.02, 0.02, seed),
        model,
        WRITTEN);
    return model;
  }

  /** The lease epoch each archival commit carries, in commit order. */
  private static List<Long> leaseEpochs(ColdTable cold, List<SnapshotInfo> archives) {
    org.apache.iceberg.Table iceberg = cold.icebergTable();
    return archives.stream()
        .map(
            s ->
                Long.parseLong(
                    iceberg.snapshot(s.snapshotId()).summary().get("meterstore.lease-epoch")))
        .toList();
  }

  private static List<SnapshotInfo> archives(ColdTable cold) {
    return cold.snapshots().stream()
        .filter(s -> "archive".equals(s.meterstoreOperation()))
        .toList();
  }

  /** Terminates the backend holding an archival lease (there is one at a time here). */
  private static void terminateLeaseBackend(TestDatabase db) {
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'"
                    + " AND classid::bigint = ? AND objsubid = 2 AND granted")) {
      s.setLong(1, Integer.toUnsignedLong(LEASE_CLASS));
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).as("a lease backend to terminate").isTrue();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
