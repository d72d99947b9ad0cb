package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.internal.snapshot.PlannedFiles;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A snapshot's files are read from its manifests once: the next plan of the snapshot is served from
 * the cache even with the manifests gone, and filters the files as Iceberg's own planning does; a
 * cache bounded at 0 keeps nothing and reads the manifests every time.
 */
@ExtendWith(PostgresExtension.class)
class PlannedFilesIT {
  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant DAY2 = Instant.parse("2026-01-02T00:00:00Z");
  private static final Instant DAY3 = Instant.parse("2026-01-03T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-01T08:00:00Z");

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

  @Test
  void aPlannedSnapshotIsServedFromTheCacheAndFilteredAsIcebergPlansIt() throws IOException {
    Table table = archivedTwoDays("planned").icebergTable();
    long snapshot = table.currentSnapshot().snapshotId();
    Expression oneLocation = Expressions.equal("malo_id", ColdFixtures.malo(2));
    List<String> iceberg =
        locations(table.newScan().useSnapshot(snapshot).filter(oneLocation).planFiles());
    List<String> all = locations(table.newScan().useSnapshot(snapshot).planFiles());

    PlannedFiles cache = new PlannedFiles(PlannedFiles.DEFAULT_MAX_BYTES);
    assertThat(locations(cache.plan(table, snapshot, table.schema(), Expressions.alwaysTrue())))
        .isEqualTo(all);
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.estimatedBytes()).isPositive();
    PlannedFiles none = new PlannedFiles(0);
    assertThat(locations(none.plan(table, snapshot, table.schema(), oneLocation)))
        .isEqualTo(iceberg);
    assertThat(none.size()).isZero();

    deleteManifests(table);
    assertThat(locations(cache.plan(table, snapshot, table.schema(), oneLocation)))
        .isEqualTo(iceberg);
    assertThat(locations(cache.plan(table, snapshot, table.schema(), Expressions.alwaysTrue())))
        .isEqualTo(all);
    assertThatThrownBy(() -> none.plan(table, snapshot, table.schema(), oneLocation))
        .isInstanceOf(RuntimeException.class);
  }

  @Test
  void aBoundFittingTwoSnapshotsKeepsTheOneUsedAgain() throws IOException {
    Table first = archivedTwoDays("first").icebergTable();
    Table second = archivedTwoDays("second").icebergTable();
    Table third = archivedTwoDays("third").icebergTable();
    PlannedFiles probe = new PlannedFiles(PlannedFiles.DEFAULT_MAX_BYTES);
    probe.plan(
        first, first.currentSnapshot().snapshotId(), first.schema(), Expressions.alwaysTrue());
    long one = probe.estimatedBytes();

    PlannedFiles cache = new PlannedFiles(2 * one + one / 2);
    for (Table t : List.of(first, second, first, third)) {
      cache.plan(t, t.currentSnapshot().snapshotId(), t.schema(), Expressions.alwaysTrue());
    }
    // second was the oldest not used since: it left, first (used again) stayed
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.estimatedBytes()).isLessThanOrEqualTo(2 * one + one / 2);
    deleteManifests(first);
    deleteManifests(second);
    long kept = first.currentSnapshot().snapshotId();
    assertThat(cache.plan(first, kept, first.schema(), Expressions.alwaysTrue())).isNotEmpty();
    long evicted = second.currentSnapshot().snapshotId();
    assertThatThrownBy(() -> cache.plan(second, evicted, second.schema(), Expressions.alwaysTrue()))
        .isInstanceOf(RuntimeException.class);
  }

  private ColdTable archivedTwoDays(String name) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 4, DAY1, DAY2, 60));
    table.archive(
        new ArchiveRequest(DAY2, DAY3, NOW, 1), ColdFixtures.rows(def, 4, DAY2, DAY3, 60));
    return table;
  }

  private static List<String> locations(CloseableIterable<FileScanTask> tasks) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    try (tasks) {
      tasks.forEach(t -> out.add(t.file().location()));
    }
    return List.copyOf(out);
  }

  private static List<String> locations(Iterable<FileScanTask> tasks) {
    TreeSet<String> out = new TreeSet<>();
    tasks.forEach(t -> out.add(t.file().location()));
    return List.copyOf(out);
  }

  private static void deleteManifests(Table table) throws IOException {
    Path metadata = Path.of(java.net.URI.create(table.location() + "/metadata"));
    try (Stream<Path> files = Files.list(metadata)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".avro")).toList()) {
        Files.delete(p);
      }
    }
  }
}
