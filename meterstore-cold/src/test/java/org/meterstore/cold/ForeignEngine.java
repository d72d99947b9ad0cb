package org.meterstore.cold;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.write.SortedChunkWriter;

/**
 * What an engine other than MeterStore does to a cold table (Spark, Trino, PyIceberg): plain
 * Iceberg appends and compaction rewrites, without MeterStore's summary keys.
 */
final class ForeignEngine {
  private ForeignEngine() {}

  /** A plain append of {@code rows}; returns the new snapshot id. */
  static long append(Table table, TableDefinition def, List<Object[]> rows) {
    List<DataFile> files = write(table, def, rows);
    AppendFiles append = table.newAppend();
    files.forEach(append::appendFile);
    append.commit();
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  /** Rewrites every data file into one new file with the same rows; returns the snapshot id. */
  static long compact(Table table, TableDefinition def) {
    table.refresh();
    Set<DataFile> old = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> old.add(t.file()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    List<Object[]> rows = new ArrayList<>();
    ColdFixtures.forEachRow(table, def, rows::add);
    List<DataFile> compacted = write(table, def, rows);
    RewriteFiles rewrite = table.newRewrite();
    old.forEach(rewrite::deleteFile);
    compacted.forEach(rewrite::addFile);
    rewrite.commit();
    table.refresh();
    return table.currentSnapshot().snapshotId();
  }

  private static List<DataFile> write(Table table, TableDefinition def, List<Object[]> rows) {
    return new SortedChunkWriter(table, def, 1_000_000, 128L * 1024 * 1024)
        .write(rows.iterator(), r -> {})
        .files();
  }
}
