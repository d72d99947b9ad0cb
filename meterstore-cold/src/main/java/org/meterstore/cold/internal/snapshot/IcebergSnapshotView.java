package org.meterstore.cold.internal.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.layout.TableLayout;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.internal.watermark.WatermarkRegression;
import org.meterstore.cold.scan.ColumnBatchReader;
import org.meterstore.cold.scan.FooterCache;
import org.meterstore.cold.snapshot.ColdDataFile;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;

/**
 * The {@link SnapshotView} over one loaded Iceberg table. The table object is never refreshed, so
 * the snapshot picked, its W and its schema are fixed when the view is made; every scan names the
 * pinned snapshot id explicitly. Columnar reads open each task's file through the table's own
 * {@code FileIO} ({@link #openBatches}), their footers and page indexes kept in the store's {@link
 * FooterCache}.
 */
public final class IcebergSnapshotView implements SnapshotView {
  private final Table table;
  private final String tableName;
  private final SnapshotSelector selector;
  private final Long snapshotId;
  private final Instant watermark;
  private final Schema schema;
  private final PlannedFiles planned;
  private final FooterCache footers;

  private IcebergSnapshotView(
      Table table,
      String tableName,
      SnapshotSelector selector,
      Long snapshotId,
      Instant watermark,
      Schema schema,
      PlannedFiles planned,
      FooterCache footers) {
    this.planned = planned;
    this.footers = footers;
    this.table = table;
    this.tableName = tableName;
    this.selector = selector;
    this.snapshotId = snapshotId;
    this.watermark = watermark;
    this.schema = schema;
  }

  /**
   * Picks {@code selector}'s snapshot of {@code table} and reads its W; columnar reads keep the
   * files' footers in {@code footers}.
   *
   * @throws MeterStoreException {@code QUERY} for an unknown snapshot, tag or instant; {@code
   *     INVARIANT_VIOLATED} when the snapshot's W is unknown; {@code STORAGE} when the metadata
   *     cannot be read
   */
  public static IcebergSnapshotView of(Table table, String tableName, SnapshotSelector selector) {
    return of(table, tableName, selector, null, null);
  }

  /**
   * As {@link #of(Table, String, SnapshotSelector)}, planning through {@code planned} (the store's
   * cache of snapshots' files) and reading footers through {@code footers}; null for no cache.
   */
  public static IcebergSnapshotView of(
      Table table,
      String tableName,
      SnapshotSelector selector,
      PlannedFiles planned,
      FooterCache footers) {
    try {
      Long id = SnapshotSelection.pick(selector, SnapshotSelection.Metadata.of(table), tableName);
      if (id == null) {
        return new IcebergSnapshotView(
            table, tableName, selector, null, Instant.EPOCH, table.schema(), planned, footers);
      }
      Instant w = WatermarkReader.resolve(table, table.snapshot(id), tableName);
      return new IcebergSnapshotView(
          table, tableName, selector, id, w, SnapshotUtil.schemaFor(table, id), planned, footers);
    } catch (MeterStoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot load cold table " + tableName + ": " + e, e);
    }
  }

  @Override
  public String tableName() {
    return tableName;
  }

  @Override
  public SnapshotSelector selector() {
    return selector;
  }

  @Override
  public OptionalLong snapshotId() {
    return snapshotId == null ? OptionalLong.empty() : OptionalLong.of(snapshotId);
  }

  @Override
  public Instant watermark() {
    return watermark;
  }

  @Override
  public Instant watermarkNotBelow(Instant committed) {
    return WatermarkRegression.require(table, tableName, snapshotId, watermark, committed);
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public CloseableIterable<FileScanTask> planFiles(Expression filter) {
    return plan(filter, false);
  }

  @Override
  public CloseableIterable<FileScanTask> planFilesWithColumnStats(Expression filter) {
    return plan(filter, true);
  }

  private CloseableIterable<FileScanTask> plan(Expression filter, boolean columnStats) {
    if (snapshotId == null) {
      return CloseableIterable.empty();
    }
    try {
      if (planned != null) {
        return planned.plan(table, snapshotId, schema, filter);
      }
      TableScan scan = table.newScan().useSnapshot(snapshotId).filter(filter);
      return (columnStats ? scan.includeColumnStats() : scan).planFiles();
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  @Override
  public CloseableIterable<Record> readRecords(Expression filter, Collection<String> columns) {
    if (snapshotId == null) {
      return CloseableIterable.empty();
    }
    try {
      return IcebergGenerics.read(table)
          .useSnapshot(snapshotId)
          .where(filter)
          .select(columns)
          .build();
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  @Override
  public ColumnBatchReader openBatches(FileScanTask task, List<String> columns, int batchRows) {
    if (!task.deletes().isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid task: " + task.file().location() + " (has delete files; read it as records)");
    }
    try {
      return ColumnBatchReader.open(
          table.io().newInputFile(task.file().location(), task.file().fileSizeInBytes()),
          schema,
          columns,
          task.residual(),
          task.start(),
          task.length(),
          batchRows,
          footers);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
  }

  @Override
  public boolean sortedByLayout(FileScanTask task) {
    Integer id = task.file().sortOrderId();
    SortOrder order = id == null ? null : table.sortOrders().get(id);
    return order != null && order.sameOrder(TableLayout.sortOrder(table.schema()));
  }

  @Override
  public List<ColdDataFile> dataFiles() {
    List<ColdDataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = planFiles(Expressions.alwaysTrue())) {
      for (FileScanTask task : tasks) {
        DataFile f = task.file();
        files.add(new ColdDataFile(f.location(), f.recordCount(), f.fileSizeInBytes()));
      }
    } catch (IOException e) {
      throw unreadable(new UncheckedIOException(e));
    } catch (RuntimeException e) {
      throw unreadable(e);
    }
    return files;
  }

  private MeterStoreException unreadable(RuntimeException e) {
    if (e instanceof MeterStoreException m) {
      return m;
    }
    return new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot read the cold tier of table " + tableName + " at snapshot " + snapshotId + ": " + e,
        e);
  }
}
