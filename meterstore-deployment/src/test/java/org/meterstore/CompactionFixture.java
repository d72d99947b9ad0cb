package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * What the compaction tests share: a workload's original deliveries written hot and archived one
 * day per cycle (as a daily loop does), its corrections appended later as late corrections, and the
 * live data files of the current snapshot.
 */
final class CompactionFixture {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private CompactionFixture() {}

  /** The original deliveries and the correction batches of {@code workload}. */
  record Split(List<List<Reading>> originals, List<List<Reading>> corrections) {}

  static Split split(Workload workload) {
    List<List<Reading>> originals = new ArrayList<>();
    List<List<Reading>> corrections = new ArrayList<>();
    for (Workload.Delivery d : workload.deliveries()) {
      (d.correction() ? corrections : originals).add(d.readings());
    }
    return new Split(originals, corrections);
  }

  /** Writes {@code batches} hot, ten deliveries per write, at {@code now}. */
  static void writeHot(
      CatalogFixture d,
      TableDefinition table,
      List<List<Reading>> batches,
      ReferenceModel model,
      Instant now) {
    for (int i = 0; i < batches.size(); i += 10) {
      List<Reading> batch = new ArrayList<>();
      batches.subList(i, Math.min(batches.size(), i + 10)).forEach(batch::addAll);
      d.hot.write(table, batch, now);
      model.write(batch, now);
    }
  }

  /**
   * One cycle per Berlin day from {@code first} up to (excluding) {@code end}, each at the day's
   * end plus the settlement lag: one window archived per cycle.
   */
  static Instant archiveDaily(
      MaintenanceBuilder loop, TableDefinition table, LocalDate first, LocalDate end) {
    Instant now = null;
    for (LocalDate day = first; day.isBefore(end); day = day.plusDays(1)) {
      Instant dayEnd = day.plusDays(1).atStartOfDay(BERLIN).toInstant();
      now = dayEnd.plus(table.policy().settlementLag()).plus(Duration.ofMinutes(1));
      TableOutcome row = loop.runOnce(now).row(table.name()).orElseThrow();
      assertThat(row.failure()).as("cycle at %s", now).isEmpty();
    }
    return now;
  }

  /** Appends the correction batches through the façade in {@code parts} commits. */
  static void appendCorrections(
      MeterCatalog catalog,
      TableDefinition table,
      List<List<Reading>> corrections,
      ReferenceModel model,
      int parts,
      Instant now) {
    int per = Math.max(1, (corrections.size() + parts - 1) / parts);
    for (int i = 0; i < corrections.size(); i += per) {
      List<Reading> batch = new ArrayList<>();
      corrections.subList(i, Math.min(corrections.size(), i + per)).forEach(batch::addAll);
      catalog.table(table.name()).append(batch, now.plusSeconds(i));
      model.write(batch, now.plusSeconds(i));
    }
  }

  /** The live data files of the current snapshot, by partition path. */
  static Map<String, List<DataFile>> liveFiles(ColdTable cold) {
    Table t = cold.icebergTable();
    Map<String, List<DataFile>> out = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile f = task.file();
        out.computeIfAbsent(t.spec().partitionToPath(f.partition()), k -> new ArrayList<>()).add(f);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** W never moves back and every snapshot MeterStore made carries its own. */
  static void assertWatermarkNeverMovedBack(ColdTable cold) {
    Instant previous = Instant.EPOCH;
    for (SnapshotInfo s : cold.snapshots()) {
      if (s.meterstoreOperation() != null) {
        assertThat(s.ownWatermark()).as("snapshot %s carries W", s.snapshotId()).isTrue();
      }
      assertThat(s.watermark()).as("W of snapshot %s", s.snapshotId()).isAfterOrEqualTo(previous);
      previous = s.watermark();
    }
  }

  /** The rows of a cold read as sorted strings, for row-for-row comparison. */
  static List<String> rows(CloseableIterable<Object[]> read) {
    List<String> out = new ArrayList<>();
    try (read) {
      for (Object[] row : read) {
        out.add(java.util.Arrays.deepToString(row));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.sort(null);
    return out;
  }
}
