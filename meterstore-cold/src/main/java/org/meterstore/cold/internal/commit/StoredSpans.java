package org.meterstore.cold.internal.commit;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ManifestEvaluator;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.internal.layout.RowConverter;
import org.meterstore.cold.outage.StorageFailures;
import org.meterstore.cold.scan.ColumnBatch;
import org.meterstore.cold.scan.ColumnBatchReader;
import org.meterstore.cold.scan.ColumnVector;
import org.meterstore.cold.scan.FooterCache;
import org.meterstore.cold.scan.IntVector;
import org.meterstore.cold.scan.LongVector;
import org.meterstore.cold.scan.TextVector;

/**
 * The stored rows a late-correction batch is checked against, read from the table's current
 * snapshot in column batches ({@link ColumnBatchReader}): only the columns the check compares,
 * files pruned by partition and statistics, row groups and pages the filter rules out skipped,
 * footers from the store's cache. Each row comes as a row array in the configured column order (as
 * {@link RowConverter#toRow} makes it) with only those columns set; rows the filter does not match
 * may come too (callers decide by key). A snapshot with delete files (a foreign engine's row-level
 * delete), or a column of a type the columnar reader does not decode, is read through Iceberg's
 * generic records instead.
 */
final class StoredSpans {
  private final Table table;
  private final RowConverter converter;
  private final List<Integer> wanted;
  private final FooterCache footers;
  private final String tableName;

  /**
   * @param wanted the indices (in the configured row) of the columns the caller reads
   * @param footers the store's footer cache, or null for none
   */
  StoredSpans(
      Table table,
      RowConverter converter,
      List<Integer> wanted,
      FooterCache footers,
      String tableName) {
    this.table = table;
    this.converter = converter;
    this.wanted = List.copyOf(wanted);
    this.footers = footers == null ? FooterCache.disabled() : footers;
    this.tableName = tableName;
  }

  /** Hands every row of the current snapshot that {@code filter} may match to {@code sink}. */
  void scan(Expression filter, Consumer<Object[]> sink) {
    if (table.currentSnapshot() == null) {
      return;
    }
    Schema schema = table.schema();
    List<String> names = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<Type> types = new ArrayList<>();
    for (int index : wanted) {
      Types.NestedField field = schema.findField(converter.columnName(index));
      if (field != null) {
        names.add(field.name());
        positions.add(index);
        types.add(field.type());
      }
    }
    try {
      Snapshot snapshot = table.currentSnapshot();
      if (!columnar(types) || !snapshot.deleteManifests(table.io()).isEmpty()) {
        scanRecords(filter, sink);
        return;
      }
      for (Planned file : plan(snapshot, filter)) {
        scanFile(file, schema, names, positions, types, sink);
      }
    } catch (IOException e) {
      throw storage(e);
    } catch (RuntimeException e) {
      MeterStoreException storage = StorageFailures.classify("scan cold table " + tableName, e);
      throw storage == null ? e : storage;
    }
  }

  /** A data file the filter may match, with what of the filter its partition leaves. */
  private record Planned(String location, long size, Expression residual) {}

  /**
   * The live data files of {@code snapshot} that {@code filter} may match: manifests pruned by
   * their partition summaries, files by partition and column statistics. Read on the calling
   * thread, one manifest after another: a table scan's plan hands manifests to Iceberg's worker
   * pool and polls for them every 10 ms, which for a filter that most manifests rule out costs more
   * than the reads.
   */
  private List<Planned> plan(Snapshot snapshot, Expression filter) throws IOException {
    Map<Integer, PartitionSpec> specs = table.specs();
    Map<Integer, ManifestEvaluator> manifestFilters = new HashMap<>();
    Map<Integer, ResidualEvaluator> residuals = new HashMap<>();
    List<Planned> files = new ArrayList<>();
    for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
      int specId = manifest.partitionSpecId();
      PartitionSpec spec = specs.get(specId);
      if (!manifestFilters
          .computeIfAbsent(specId, id -> ManifestEvaluator.forRowFilter(filter, spec, true))
          .eval(manifest)) {
        continue;
      }
      ResidualEvaluator residual =
          residuals.computeIfAbsent(specId, id -> ResidualEvaluator.of(spec, filter, true));
      try (ManifestReader<DataFile> reader =
          ManifestFiles.read(manifest, table.io(), specs).filterRows(filter)) {
        for (DataFile file : reader) {
          files.add(
              new Planned(
                  file.location(), file.fileSizeInBytes(), residual.residualFor(file.partition())));
        }
      }
    }
    return files;
  }

  private static boolean columnar(List<Type> types) {
    for (Type type : types) {
      switch (type.typeId()) {
        case STRING, TIMESTAMP, DATE, DECIMAL -> {}
        default -> {
          return false;
        }
      }
    }
    return true;
  }

  private void scanFile(
      Planned file,
      Schema schema,
      List<String> names,
      List<Integer> positions,
      List<Type> types,
      Consumer<Object[]> sink) {
    try (ColumnBatchReader reader =
        ColumnBatchReader.open(
            table.io().newInputFile(file.location(), file.size()),
            schema,
            names,
            file.residual(),
            0,
            file.size(),
            ColumnBatchReader.DEFAULT_BATCH_ROWS,
            footers)) {
      int width = converter.width();
      for (ColumnBatch batch = reader.next(); batch != null; batch = reader.next()) {
        for (int row = 0; row < batch.size(); row++) {
          Object[] values = new Object[width];
          for (int c = 0; c < positions.size(); c++) {
            values[positions.get(c)] = value(batch.column(c), types.get(c), row);
          }
          sink.accept(values);
        }
      }
    }
  }

  private static Object value(ColumnVector vector, Type type, int row) {
    if (vector.isNull(row)) {
      return null;
    }
    switch (type.typeId()) {
      case STRING:
        return ((TextVector) vector).value(row);
      case DATE:
        return LocalDate.ofEpochDay(((IntVector) vector).values()[row]);
      case TIMESTAMP:
        long micros = ((LongVector) vector).values()[row];
        return Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      case DECIMAL:
        LongVector decimals = (LongVector) vector;
        BigDecimal[] overflow = decimals.overflow();
        if (overflow != null && overflow[row] != null) {
          return overflow[row];
        }
        return BigDecimal.valueOf(decimals.values()[row], ((Types.DecimalType) type).scale());
      default:
        throw new IllegalStateException("not decoded in columns: " + type);
    }
  }

  private void scanRecords(Expression filter, Consumer<Object[]> sink) throws IOException {
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).where(filter).build()) {
      for (Record record : records) {
        sink.accept(converter.toRow(record));
      }
    }
  }

  private MeterStoreException storage(IOException e) {
    return new MeterStoreException(
        ErrorKind.STORAGE, "Cannot scan cold table " + tableName + ": " + e, e);
  }
}
