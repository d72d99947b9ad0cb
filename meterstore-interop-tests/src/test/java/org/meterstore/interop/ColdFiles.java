package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A pinned snapshot's Parquet files as an engine without an Iceberg connector reads them (DuckDB's
 * {@code read_parquet}), and the published {@code resolution_sql} applied to any relation.
 */
final class ColdFiles {
  private ColdFiles() {}

  /** The local paths of snapshot {@code snapshotId}'s data files; it must have no delete files. */
  static List<String> of(Table table, long snapshotId) throws IOException {
    List<String> out = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshotId).planFiles()) {
      for (FileScanTask task : tasks) {
        assertThat(task.deletes()).as("delete files in " + task.file().location()).isEmpty();
        out.add(Path.of(URI.create(task.file().location())).toString());
      }
    }
    assertThat(out).as("data files of snapshot " + snapshotId).isNotEmpty();
    return out;
  }

  /** DuckDB's relation over {@code files}. */
  static String readParquet(List<String> files) {
    return "read_parquet(["
        + String.join(", ", files.stream().map(f -> "'" + f.replace("'", "''") + "'").toList())
        + "])";
  }

  /**
   * The published {@code resolution_sql} (over the Iceberg table {@code table}) with {@code
   * relation} in the table's place, parenthesised.
   */
  static String resolvedOver(String resolutionSql, String table, String relation) {
    String quoted = "\"meterstore\".\"meterstore\".\"" + table + "\"";
    assertThat(resolutionSql).contains(quoted + " AS \"t\"");
    return "(" + resolutionSql.replace(quoted, relation) + ")";
  }
}
