package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.parquet.ParquetBloomRowGroupFilter;
import org.apache.iceberg.parquet.ParquetDictionaryRowGroupFilter;
import org.apache.iceberg.parquet.ParquetMetricsRowGroupFilter;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.schema.MessageType;

/**
 * Which rows of each row group a reader decodes. A row group is skipped when the residual filter
 * rules it out by its column statistics, its bloom filters or its dictionaries (the cheapest first;
 * Iceberg's own row-group filters, except that text equalities of the page predicate are checked
 * against dictionaries kept decoded with the file's footer, {@link DictionaryMembership}). Of a row
 * group that may match, only the row ranges whose pages the {@link PageFilter page predicate} may
 * match are read, found through the file's column indexes and offset indexes. The page indexes are
 * not consulted when the row group's statistics show that every row matches (a year's scan of whole
 * months), nor when a column to read has no offset index (a foreign writer's file): then every row
 * is read.
 */
final class RowSelection {
  private final Schema schema;
  private final Expression residual;
  private final IndexedFileReader reader;
  private final MessageType fileSchema;
  private final FilterPredicate pages;
  private final Set<ColumnPath> fileColumns = new HashSet<>();
  private final Set<ColumnPath> readColumns = new HashSet<>();
  private ParquetMetricsRowGroupFilter metrics;
  private ParquetDictionaryRowGroupFilter dictionaries;
  private ParquetBloomRowGroupFilter blooms;

  /**
   * @param residual the filter, never null; {@code alwaysTrue} reads everything
   * @param filtering whether the file can be filtered (its schema carries Iceberg field ids)
   */
  RowSelection(
      Schema schema,
      Expression residual,
      IndexedFileReader reader,
      MessageType projection,
      boolean filtering) {
    this.schema = schema;
    this.residual = residual;
    this.reader = reader;
    this.fileSchema = reader.getFileMetaData().getSchema();
    boolean any = filtering && residual.op() != Expression.Operation.TRUE;
    this.pages = any ? PageFilter.of(schema, residual, fileSchema) : null;
    if (any) {
      this.metrics = new ParquetMetricsRowGroupFilter(schema, residual, true);
    }
    for (ColumnDescriptor d : fileSchema.getColumns()) {
      fileColumns.add(ColumnPath.get(d.getPath()));
    }
    for (ColumnDescriptor d : projection.getColumns()) {
      readColumns.add(ColumnPath.get(d.getPath()));
    }
  }

  /** The rows of row group {@code index} of the split to read; empty when it is skipped. */
  RowRanges rows(int index) {
    BlockMetaData block = reader.getRowGroups().get(index);
    RowRanges all = RowRanges.createSingle(block.getRowCount());
    if (metrics == null) {
      return all;
    }
    if (!mayMatch(block)) {
      return RowRanges.EMPTY;
    }
    if (pages == null || allMatch(pages, chunks(block))) {
      return all;
    }
    ColumnIndexStore indexes = reader.getColumnIndexStore(index);
    for (ColumnPath c : readColumns) {
      try {
        indexes.getOffsetIndex(c);
      } catch (ColumnIndexStore.MissingOffsetIndexException e) {
        return all;
      }
    }
    return ColumnIndexFilter.calculateRowRanges(
        FilterCompat.get(pages), indexes, fileColumns, block.getRowCount());
  }

  private boolean mayMatch(BlockMetaData block) {
    if (!metrics.shouldRead(fileSchema, block)) {
      return false;
    }
    if (dictionaries == null) {
      dictionaries = new ParquetDictionaryRowGroupFilter(schema, residual, true);
      blooms = new ParquetBloomRowGroupFilter(schema, residual, true);
    }
    if (!blooms.shouldRead(fileSchema, block, reader.getBloomFilterDataReader(block))) {
      return false;
    }
    if (pages != null && reader.cached() != null) {
      // the text equalities against dictionaries kept decoded with the footer: one hash probe
      try {
        return DictionaryMembership.mayMatch(
            pages, block, fileSchema, reader.cached(), reader.getDictionaryReader(block));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dictionaries.shouldRead(fileSchema, block, reader.getDictionaryReader(block));
  }

  private static Map<ColumnPath, ColumnChunkMetaData> chunks(BlockMetaData block) {
    Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();
    for (ColumnChunkMetaData c : block.getColumns()) {
      chunks.put(c.getPath(), c);
    }
    return chunks;
  }

  /**
   * Whether the row group's statistics show that {@code p} holds for every row: then its page
   * indexes cannot narrow anything. False when unsure.
   */
  static boolean allMatch(FilterPredicate p, Map<ColumnPath, ColumnChunkMetaData> chunks) {
    if (p instanceof Operators.And and) {
      return allMatch(and.getLeft(), chunks) && allMatch(and.getRight(), chunks);
    }
    if (p instanceof Operators.Or or) {
      return allMatch(or.getLeft(), chunks) || allMatch(or.getRight(), chunks);
    }
    if (p instanceof Operators.Eq<?> eq) {
      return bounds(chunks, eq.getColumn(), eq.getValue(), 0, 0);
    }
    if (p instanceof Operators.Lt<?> lt) {
      return bounds(chunks, lt.getColumn(), lt.getValue(), null, -1);
    }
    if (p instanceof Operators.LtEq<?> ltEq) {
      return bounds(chunks, ltEq.getColumn(), ltEq.getValue(), null, 0);
    }
    if (p instanceof Operators.Gt<?> gt) {
      return bounds(chunks, gt.getColumn(), gt.getValue(), 1, null);
    }
    if (p instanceof Operators.GtEq<?> gtEq) {
      return bounds(chunks, gtEq.getColumn(), gtEq.getValue(), 0, null);
    }
    return false;
  }

  /**
   * Whether the chunk of {@code column} has no null and its minimum compares to {@code value} at
   * least as {@code minAtLeast} and its maximum at most as {@code maxAtMost} (null: no condition).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static boolean bounds(
      Map<ColumnPath, ColumnChunkMetaData> chunks,
      Operators.Column<?> column,
      Comparable value,
      Integer minAtLeast,
      Integer maxAtMost) {
    ColumnChunkMetaData chunk = chunks.get(column.getColumnPath());
    Statistics stats = chunk == null ? null : chunk.getStatistics();
    if (value == null
        || stats == null
        || stats.isEmpty()
        || !stats.hasNonNullValue()
        || !stats.isNumNullsSet()
        || stats.getNumNulls() > 0) {
      return false;
    }
    return (minAtLeast == null || Integer.signum(stats.compareMinToValue(value)) >= minAtLeast)
        && (maxAtMost == null || Integer.signum(stats.compareMaxToValue(value)) <= maxAtMost);
  }
}
