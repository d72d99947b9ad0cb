package org.meterstore.cold.internal.compact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.cold.internal.catalog.ManifestWork;

/**
 * The live data files of one snapshot as {@link CompactionPlanner.FileStats}: partition path and
 * month, size, data sequence number, the single {@code version} their bounds prove (if any) and
 * whether delete files apply. Read from the manifests only.
 */
final class FileStatistics {
  private FileStatistics() {}

  /** The files of {@code snapshot}, each once. */
  static List<CompactionPlanner.FileStats> of(Table table, Snapshot snapshot) {
    Types.NestedField version = table.schema().findField(StandardColumn.VERSION.columnName());
    List<CompactionPlanner.FileStats> out = new ArrayList<>();
    for (FileScanTask task : tasks(table, snapshot)) {
      DataFile f = task.file();
      PartitionSpec spec = table.specs().get(f.specId());
      out.add(
          new CompactionPlanner.FileStats(
              f.location(),
              f.specId(),
              spec.partitionToPath(f.partition()),
              month(table, spec, f),
              f.fileSizeInBytes(),
              f.dataSequenceNumber() == null ? -1 : f.dataSequenceNumber(),
              singleVersion(f, version),
              !task.deletes().isEmpty()));
    }
    return out;
  }

  /** The data files of {@code snapshot} by location. */
  static Map<String, DataFile> dataFiles(Table table, Snapshot snapshot) {
    Map<String, DataFile> out = new HashMap<>();
    for (FileScanTask task : tasks(table, snapshot)) {
      out.put(task.file().location(), task.file());
    }
    return out;
  }

  private static List<FileScanTask> tasks(Table table, Snapshot snapshot) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        ManifestWork.plan(
                table.newScan().useSnapshot(snapshot.snapshotId()).includeColumnStats(),
                table,
                snapshot)
            .planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /** The partition's {@code month(from)} value, or null when the spec has none. */
  private static Integer month(Table table, PartitionSpec spec, DataFile f) {
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      String source = table.schema().findColumnName(field.sourceId());
      if (StandardColumn.FROM.columnName().equals(source)
          && "month".equals(field.transform().toString())) {
        return f.partition().get(i, Integer.class);
      }
    }
    return null;
  }

  private static Object singleVersion(DataFile f, Types.NestedField version) {
    if (version == null || f.lowerBounds() == null || f.upperBounds() == null) {
      return null;
    }
    ByteBuffer lo = f.lowerBounds().get(version.fieldId());
    ByteBuffer hi = f.upperBounds().get(version.fieldId());
    if (lo == null || hi == null) {
      return null;
    }
    Object low = Conversions.fromByteBuffer(version.type(), lo);
    return low.equals(Conversions.fromByteBuffer(version.type(), hi)) ? low : null;
  }
}
