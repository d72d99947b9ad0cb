package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.types.Types;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads one Parquet data file (or the row groups of one split of it) in {@link ColumnBatch}es of
 * the requested columns, through Parquet's page and value readers: no per-row objects. Row groups
 * are those whose midpoint lies in {@code [start, start + length)} (as for Hadoop splits, so the
 * splits of one file read each row group once), minus those the residual filter rules out by their
 * column statistics, dictionaries or bloom filters. Of the others, only the rows of the pages the
 * residual may match are decoded ({@link RowSelection}: the page indexes answer equality and {@code
 * IN} on text columns and ranges of timestamps); the values of other rows in those pages are
 * skipped by every column's decoder, so the columns of a batch stay aligned row by row. Rows that
 * are returned are not guaranteed to match the residual: callers filter rows. A column the file
 * lacks (added to the schema later) reads as null. Rows come in file order; a batch never spans two
 * row groups.
 *
 * <p>The file's footer and page indexes come from a {@link FooterCache} (read and kept on a miss).
 * A batch and its vectors are valid until the next call to {@link #next()}: their arrays are
 * reused. Not thread-safe; one reader per thread. Iteration fails with unchecked exceptions ({@link
 * UncheckedIOException} when the object store cannot be read); {@link #close()} releases the file
 * and the decompressors.
 */
public final class ColumnBatchReader implements AutoCloseable {
  /** Rows per batch unless asked otherwise: a few thousand, so vectors stay in cache. */
  public static final int DEFAULT_BATCH_ROWS = 4096;

  private final IndexedFileReader reader;
  private final PageCodecs codecs;
  private final FileColumns columns;
  private final RowSelection selection;
  private final int batchRows;
  private final int rowGroups;
  private int nextRowGroup;
  private RowSpans spans;
  private int skipped;
  private int read;
  private long rowsReturned;

  private ColumnBatchReader(
      IndexedFileReader reader,
      PageCodecs codecs,
      FileColumns columns,
      RowSelection selection,
      int batchRows) {
    this.reader = reader;
    this.codecs = codecs;
    this.columns = columns;
    this.selection = selection;
    this.batchRows = batchRows;
    this.rowGroups = reader.getRowGroups().size();
  }

  /**
   * Opens {@code file} for reading {@code columns}, reading its footer (without a cache).
   *
   * @see #open(InputFile, Schema, List, Expression, long, long, int, FooterCache)
   */
  public static ColumnBatchReader open(
      InputFile file,
      Schema schema,
      List<String> columns,
      Expression residual,
      long start,
      long length,
      int batchRows) {
    return open(file, schema, columns, residual, start, length, batchRows, FooterCache.disabled());
  }

  /**
   * Opens {@code file} for reading {@code columns}.
   *
   * @param file the data file, opened through the table's FileIO; its location and length key the
   *     footer cache
   * @param schema the schema the scan reads with (the columns and the residual are bound to it)
   * @param columns the column names to read, in the order of the batches' vectors
   * @param residual the filter left after partition pruning, or null for none: row groups and pages
   *     it rules out are skipped (the rows returned are not filtered exactly)
   * @param start the split's first byte
   * @param length the split's length in bytes
   * @param batchRows the largest batch, at least 1
   * @param footers where the file's footer and page indexes are kept between opens
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
      int batchRows,
      FooterCache footers) {
    if (batchRows < 1) {
      throw new IllegalArgumentException("Invalid batchRows: " + batchRows + " (at least 1)");
    }
    List<Types.NestedField> fields = fields(schema, columns);
    PageCodecs codecs = new PageCodecs();
    ParquetReadOptions options =
        // a plain configuration: a Hadoop one parses core-default.xml for every file opened
        new ParquetReadOptions.Builder(new PlainParquetConfiguration())
            .withCodecFactory(codecs)
            .useStatsFilter(false)
            .useDictionaryFilter(false)
            .useColumnIndexFilter(false)
            .useBloomFilter(false)
            .usePageChecksumVerification(false)
            .build();
    IcebergInputFile parquetFile = new IcebergInputFile(file);
    SeekableInputStream stream = null;
    IndexedFileReader reader = null;
    try {
      stream = parquetFile.newStream();
      SeekableInputStream in = stream;
      CachedFile cached =
          footers.file(
              file.location(),
              file.getLength(),
              () -> ParquetFileReader.readFooter(parquetFile, options, in));
      ParquetMetadata footer = cached.footer();
      ParquetMetadata split =
          new ParquetMetadata(footer.getFileMetaData(), inSplit(footer, start, length));
      reader = new IndexedFileReader(parquetFile, split, options, stream, cached);
      FileColumns fileColumns = FileColumns.of(footer.getFileMetaData().getSchema(), fields);
      reader.setRequestedSchema(fileColumns.projection());
      Expression filter = residual == null ? Expressions.alwaysTrue() : residual;
      RowSelection selection =
          new RowSelection(
              schema, filter, reader, fileColumns.projection(), fileColumns.hasFieldIds());
      return new ColumnBatchReader(reader, codecs, fileColumns, selection, batchRows);
    } catch (IOException e) {
      closeQuietly(reader, stream, codecs);
      throw new UncheckedIOException("Cannot open Parquet file " + file.location(), e);
    } catch (RuntimeException e) {
      closeQuietly(reader, stream, codecs);
      throw e;
    }
  }

  private static List<Types.NestedField> fields(Schema schema, List<String> columns) {
    List<Types.NestedField> fields = new ArrayList<>();
    for (String c : columns) {
      Types.NestedField f = schema.findField(c);
      if (f == null) {
        throw new IllegalArgumentException("Invalid column: " + c + " (not in the schema)");
      }
      fields.add(f);
    }
    return fields;
  }

  /** The row groups whose midpoint lies in the split, as Parquet's range filter picks them. */
  private static List<BlockMetaData> inSplit(ParquetMetadata footer, long start, long length) {
    List<BlockMetaData> blocks = new ArrayList<>();
    for (BlockMetaData block : footer.getBlocks()) {
      long mid = block.getStartingPos() + block.getCompressedSize() / 2;
      if (mid >= start && mid < start + length) {
        blocks.add(block);
      }
    }
    return blocks;
  }

  /** The next batch, or null when the file (split) has no more rows. */
  public ColumnBatch next() {
    try {
      while (spans == null || spans.remaining() == 0) {
        if (!advance()) {
          return null;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    spans.take(batchRows);
    rowsReturned += spans.rows();
    return new ColumnBatch(spans.rows(), columns.read(spans));
  }

  private boolean advance() throws IOException {
    if (nextRowGroup >= rowGroups) {
      return false;
    }
    int index = nextRowGroup++;
    RowRanges rows = selection.rows(index);
    if (rows.rowCount() == 0) {
      skipped++;
      spans = null;
      return true;
    }
    PageReadStore pages = reader.readFilteredRowGroup(index, rows);
    read++;
    columns.start(pages, reader.getRowGroups().get(index), reader.cached());
    spans = RowSpans.of(rows);
    return true;
  }

  /** Row groups skipped so far by the residual filter. */
  public int rowGroupsSkipped() {
    return skipped;
  }

  /** Row groups read so far. */
  public int rowGroupsRead() {
    return read;
  }

  /**
   * Rows decoded from Parquet pages so far: of the column that decoded the most, the rows of the
   * pages it read (a page is decoded whole, also the rows of it that are skipped). At least {@link
   * #rowsReturned()}.
   */
  public long rowsDecoded() {
    return Math.max(columns.rowsDecoded(), rowsReturned);
  }

  /** Rows returned in batches so far. */
  public long rowsReturned() {
    return rowsReturned;
  }

  @Override
  public void close() {
    closeQuietly(reader, null, codecs);
  }

  private static void closeQuietly(
      ParquetFileReader reader, SeekableInputStream stream, PageCodecs codecs) {
    try {
      if (reader != null) {
        reader.close();
      } else if (stream != null) {
        stream.close();
      }
    } catch (IOException e) {
      // nothing was written; the file handle is gone either way
    } finally {
      codecs.release();
    }
  }
}
