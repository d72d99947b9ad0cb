package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.ParquetCodecFactory;
import org.apache.iceberg.parquet.ParquetDictionaryRowGroupFilter;
import org.apache.iceberg.parquet.ParquetMetricsRowGroupFilter;
import org.apache.iceberg.types.Types;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * Reads one Parquet data file (or the row groups of one split of it) in {@link ColumnBatch}es of
 * the requested columns, through Parquet's page and value readers: no per-row objects. Row groups
 * are those whose midpoint lies in {@code [start, start + length)} (as for Hadoop splits, so the
 * splits of one file read each row group once), minus those the residual filter rules out by their
 * column statistics or dictionaries. A column the file lacks (added to the schema later) reads as
 * null. Rows come in file order; a batch never spans two row groups.
 *
 * <p>A batch and its vectors are valid until the next call to {@link #next()}: their arrays are
 * reused. Not thread-safe; one reader per thread. Iteration fails with unchecked exceptions ({@link
 * UncheckedIOException} when the object store cannot be read); {@link #close()} releases the file
 * and the decompressors.
 */
public final class ColumnBatchReader implements AutoCloseable {
  /** Rows per batch unless asked otherwise: a few thousand, so vectors stay in cache. */
  public static final int DEFAULT_BATCH_ROWS = 4096;

  private static final Configuration CONF = new Configuration(false);

  private final ParquetFileReader reader;
  private final ParquetCodecFactory codecs;
  private final FileColumns columns;
  private final Expression residual;
  private final Schema schema;
  private final int batchRows;
  private final List<BlockMetaData> rowGroups;
  private int nextRowGroup;
  private long rowsLeft;
  private int skipped;
  private int read;
  private ParquetMetricsRowGroupFilter metricsFilter;
  private ParquetDictionaryRowGroupFilter dictionaryFilter;

  private ColumnBatchReader(
      ParquetFileReader reader,
      ParquetCodecFactory codecs,
      FileColumns columns,
      Schema schema,
      Expression residual,
      int batchRows) {
    this.reader = reader;
    this.codecs = codecs;
    this.columns = columns;
    this.schema = schema;
    this.residual = residual;
    this.batchRows = batchRows;
    this.rowGroups = reader.getRowGroups();
  }

  /**
   * Opens {@code file} for reading {@code columns}.
   *
   * @param file the data file, opened through the table's FileIO
   * @param schema the schema the scan reads with (the columns and the residual are bound to it)
   * @param columns the column names to read, in the order of the batches' vectors
   * @param residual the filter left after partition pruning; row groups it rules out are skipped
   *     (rows are not filtered)
   * @param start the split's first byte
   * @param length the split's length in bytes
   * @param batchRows the largest batch, at least 1
   * @throws UncheckedIOException when the file cannot be opened
   * @throws IllegalArgumentException for a column the schema lacks or of a type not supported
   */
  public static ColumnBatchReader open(
      InputFile file,
      Schema schema,
      List<String> columns,
      Expression residual,
      long start,
      long length,
      int batchRows) {
    if (batchRows < 1) {
      throw new IllegalArgumentException("Invalid batchRows: " + batchRows + " (at least 1)");
    }
    List<Types.NestedField> fields = new ArrayList<>();
    for (String c : columns) {
      Types.NestedField f = schema.findField(c);
      if (f == null) {
        throw new IllegalArgumentException("Invalid column: " + c + " (not in the schema)");
      }
      fields.add(f);
    }
    ParquetCodecFactory codecs = new ParquetCodecFactory(CONF, 0);
    ParquetReadOptions options =
        // a plain configuration: a Hadoop one parses core-default.xml for every file opened
        new ParquetReadOptions.Builder(new PlainParquetConfiguration())
            .withRange(start, start + length)
            .withCodecFactory(codecs)
            .useStatsFilter(false)
            .useDictionaryFilter(false)
            .useColumnIndexFilter(false)
            .useBloomFilter(false)
            .usePageChecksumVerification(false)
            .build();
    ParquetFileReader reader = null;
    try {
      reader = ParquetFileReader.open(new IcebergInputFile(file), options);
      FileColumns fileColumns = FileColumns.of(reader.getFileMetaData().getSchema(), fields);
      reader.setRequestedSchema(fileColumns.projection());
      return new ColumnBatchReader(
          reader,
          codecs,
          fileColumns,
          schema,
          residual == null ? Expressions.alwaysTrue() : residual,
          batchRows);
    } catch (IOException e) {
      closeQuietly(reader, codecs);
      throw new UncheckedIOException("Cannot open Parquet file " + file.location(), e);
    } catch (RuntimeException e) {
      closeQuietly(reader, codecs);
      throw e;
    }
  }

  /** The next batch, or null when the file (split) has no more rows. */
  public ColumnBatch next() {
    try {
      while (rowsLeft == 0) {
        if (!advance()) {
          return null;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int n = (int) Math.min(batchRows, rowsLeft);
    rowsLeft -= n;
    return new ColumnBatch(n, columns.read(n));
  }

  private boolean advance() throws IOException {
    if (nextRowGroup >= rowGroups.size()) {
      return false;
    }
    BlockMetaData block = rowGroups.get(nextRowGroup++);
    if (!shouldRead(block)) {
      skipped++;
      reader.skipNextRowGroup();
      return true;
    }
    PageReadStore pages = reader.readNextRowGroup();
    read++;
    columns.start(pages);
    rowsLeft = pages.getRowCount();
    return true;
  }

  private boolean shouldRead(BlockMetaData block) {
    if (residual.equals(Expressions.alwaysTrue()) || !columns.hasFieldIds()) {
      return true;
    }
    if (metricsFilter == null) {
      metricsFilter = new ParquetMetricsRowGroupFilter(schema, residual, true);
      dictionaryFilter = new ParquetDictionaryRowGroupFilter(schema, residual, true);
    }
    MessageType fileSchema = reader.getFileMetaData().getSchema();
    return metricsFilter.shouldRead(fileSchema, block)
        && dictionaryFilter.shouldRead(fileSchema, block, reader.getDictionaryReader(block));
  }

  /** Row groups skipped so far by the residual filter. */
  public int rowGroupsSkipped() {
    return skipped;
  }

  /** Row groups read so far. */
  public int rowGroupsRead() {
    return read;
  }

  @Override
  public void close() {
    closeQuietly(reader, codecs);
  }

  private static void closeQuietly(ParquetFileReader reader, ParquetCodecFactory codecs) {
    try {
      if (reader != null) {
        reader.close();
      }
    } catch (IOException e) {
      // nothing was written; the file handle is gone either way
    } finally {
      codecs.release();
    }
  }
}
