package org.meterstore.query.internal.cold;

import org.apache.iceberg.FileScanTask;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnBatchReader;

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
    ColumnBatchReader reader =
        context.snapshot().openBatches(task, context.columns().nameList(), context.batchRows());
    BatchFilter filter = context.all();
    return new UnitRun() {
      private int[] sel = new int[context.batchRows()];
      private long rows;

      @Override
      public boolean step(BatchSink sink) {
        ColumnBatch batch = reader.next();
        if (batch == null) {
          return false;
        }
        rows += batch.size();
        if (sel.length < batch.size()) {
          sel = new int[batch.size()];
        }
        int n = filter.apply(batch, UnitContext.identity(sel, batch.size()), batch.size());
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
      public void close() {
        reader.close();
      }
    };
  }
}
