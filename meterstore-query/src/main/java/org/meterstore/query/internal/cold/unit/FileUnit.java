package org.meterstore.query.internal.cold.unit;

import java.util.Arrays;
import org.apache.iceberg.FileScanTask;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnBatchReader;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.query.internal.cold.batch.BatchSink;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.BatchFilter;

/**
 * One task read columnar with no resolution: its file holds one version that no other file of the
 * scan overlaps (or the scan returns every version), so every predicate applies to every row.
 */
final class FileUnit implements ScanUnit {
  private final FileScanTask task;
  private final String resolution;

  FileUnit(FileScanTask task, String resolution) {
    this.task = task;
    this.resolution = resolution;
  }

  @Override
  public String path() {
    return "columnar";
  }

  @Override
  public String resolution() {
    return resolution;
  }

  @Override
  public long weight() {
    return task.length();
  }

  @Override
  public UnitRun open(UnitContext context) {
    ScanColumns columns = context.columns();
    // no resolution here: the columns only resolution needs are not read
    ColumnBatchReader reader =
        context.snapshot().openBatches(task, columns.unresolvedNames(), context.batchRows());
    BatchFilter filter = context.all();
    int[] positions = columns.unresolved;
    boolean all = positions.length == columns.types.length;
    return new UnitRun() {
      private int[] sel = new int[context.batchRows()];
      private long rows;

      @Override
      public boolean step(BatchSink sink) {
        ColumnBatch read = reader.next();
        if (read == null) {
          return false;
        }
        ColumnBatch batch = all ? read : expand(read, positions, columns.types.length);
        rows += batch.size();
        if (sel.length < batch.size()) {
          sel = new int[batch.size()];
        }
        int n = filter.apply(batch, BatchFilter.identity(sel, batch.size()), batch.size());
        if (n > 0) {
          sink.accept(batch, sel, n);
        }
        return true;
      }

      @Override
      public long rowsRead() {
        return rows;
      }

      @Override
      public long rowsDecoded() {
        return reader.rowsDecoded();
      }

      @Override
      public void close() {
        reader.close();
      }
    };
  }

  /** {@code read}'s vectors at their scan positions; unread positions hold an empty vector. */
  private static ColumnBatch expand(ColumnBatch read, int[] positions, int width) {
    ColumnVector[] vectors = new ColumnVector[width];
    Arrays.fill(vectors, UNREAD);
    for (int i = 0; i < positions.length; i++) {
      vectors[positions[i]] = read.column(i);
    }
    return new ColumnBatch(read.size(), Arrays.asList(vectors));
  }

  private static final ColumnVector UNREAD = new LongVector(new long[0], null, null);
}
