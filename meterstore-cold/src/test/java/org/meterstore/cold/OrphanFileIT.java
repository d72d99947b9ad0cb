package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** Orphan-file removal inside the JVM: only unreferenced files older than the safety age go. */
@ExtendWith(PostgresExtension.class)
class OrphanFileIT {
  private static final Duration SAFETY = Duration.ofDays(3);

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

  private ColdTable archived(String name) {
    TableDefinition def = TableDefinition.interval(name);
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 2, DAY1, DAY2, 60));
    ForeignEngine.compact(table.icebergTable(), def);
    table.expireSnapshots(
        WatermarkIT.LATER,
        org.meterstore.api.table.TablePolicy.DEFAULTS.withSnapshotRetention(
            java.time.Period.ofYears(10), 1));
    return table;
  }

  /** Plants an unreferenced file under the table's data folder, last modified at {@code at}. */
  private Path plant(String table, String name, Instant at) throws IOException {
    Path dir = warehouse.resolve("meterstore").resolve(table).resolve("data");
    Files.createDirectories(dir);
    Path file = dir.resolve(name);
    Files.write(file, new byte[] {1, 2, 3});
    Files.setLastModifiedTime(file, FileTime.from(at));
    return file;
  }

  /** Every file under the table's folder, with its content, for before/after comparison. */
  private List<Path> allFiles(String table) throws IOException {
    try (Stream<Path> files = Files.walk(warehouse.resolve("meterstore").resolve(table))) {
      return files
          .filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().endsWith(".crc"))
          .sorted()
          .toList();
    }
  }

  @Test
  void aDryRunListsThePlantedOrphanAndDeletesNothing() throws IOException {
    ColdTable table = archived("dry_run");
    Path orphan = plant("dry_run", "orphan.parquet", NOW.minus(Duration.ofDays(10)));
    List<Path> before = allFiles("dry_run");

    OrphanReport report = table.removeOrphanFiles(NOW, SAFETY, true);

    assertThat(report.dryRun()).isTrue();
    assertThat(report.orphans()).anyMatch(p -> p.endsWith("data/orphan.parquet"));
    assertThat(report.deleted()).isEmpty();
    assertThat(allFiles("dry_run")).isEqualTo(before);
    assertThat(orphan).exists();
  }

  @Test
  void removesAPlantedOrphanOlderThanTheSafetyAgeAndNeverAReferencedFile() throws IOException {
    ColdTable table = archived("removal");
    List<Path> referenced = allFiles("removal");
    for (Path p : referenced) {
      Files.setLastModifiedTime(p, FileTime.from(NOW.minus(Duration.ofDays(30))));
    }
    Path old = plant("removal", "old-orphan.parquet", NOW.minus(Duration.ofDays(10)));
    Path fresh = plant("removal", "fresh-orphan.parquet", NOW.minus(Duration.ofHours(1)));
    List<String> rows = ColdFixtures.canonical(table.read());

    OrphanReport report = table.removeOrphanFiles(NOW, SAFETY, false);

    assertThat(report.deleted()).hasSize(1).allMatch(p -> p.endsWith("data/old-orphan.parquet"));
    assertThat(referenced).allMatch(Files::exists);
    assertThat(old).doesNotExist();
    assertThat(fresh).exists();
    assertThat(report.referencedFiles()).isPositive();
    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(rows);
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(store.createTable(table.definition()).snapshots()).hasSize(1);
    OrphanReport again = table.removeOrphanFiles(NOW, SAFETY, false);
    assertThat(again.deleted()).isEmpty();
  }

  @Test
  void referencedFilesAreNeverCandidatesWhateverTheirAge() throws IOException {
    ColdTable table = archived("referenced");
    OrphanReport first = table.removeOrphanFiles(NOW, SAFETY, false);
    List<Path> afterFirst = allFiles("referenced");

    OrphanReport report = table.removeOrphanFiles(WatermarkIT.LATER, Duration.ZERO, true);

    assertThat(report.orphans()).isEmpty();
    assertThat(report.scannedFiles()).isEqualTo(afterFirst.size());
    assertThat(first.scannedFiles()).isGreaterThanOrEqualTo(afterFirst.size());
    assertThat(ColdFixtures.count(table.read())).isEqualTo(48);
  }
}
