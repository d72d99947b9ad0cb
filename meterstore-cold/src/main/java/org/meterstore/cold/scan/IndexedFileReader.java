package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexStore;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Parquet's file reader over a footer read before (from a {@link FooterCache}), whose page indexes
 * come from the same cache entry: Parquet's own reader reads a row group's offset indexes from the
 * file again every time it reads the row group filtered, one small read per column, which on an
 * object store is a request each. Everything else is Parquet's reader unchanged.
 */
final class IndexedFileReader extends ParquetFileReader {
  private final CachedFile cached;

  /** Where this file's metadata is kept between opens. */
  CachedFile cached() {
    return cached;
  }

  /**
   * @param split the file's footer with the row groups of the split to read
   * @param cached where the file's page indexes are kept
   */
  IndexedFileReader(
      InputFile file,
      ParquetMetadata split,
      ParquetReadOptions options,
      SeekableInputStream stream,
      CachedFile cached)
      throws IOException {
    super(file, split, options, stream);
    this.cached = cached;
  }

  /** The page indexes of row group {@code blockIndex} of the split, from the cache. */
  @Override
  public ColumnIndexStore getColumnIndexStore(int blockIndex) {
    return new BlockIndexes(getRowGroups().get(blockIndex));
  }

  private final class BlockIndexes implements ColumnIndexStore {
    private final Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();

    BlockIndexes(BlockMetaData block) {
      for (ColumnChunkMetaData c : block.getColumns()) {
        chunks.put(c.getPath(), c);
      }
    }

    @Override
    public ColumnIndex getColumnIndex(ColumnPath column) {
      ColumnChunkMetaData chunk = chunks.get(column);
      try {
        return chunk == null ? null : cached.columnIndex(chunk, IndexedFileReader.this);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public OffsetIndex getOffsetIndex(ColumnPath column) {
      ColumnChunkMetaData chunk = chunks.get(column);
      OffsetIndex index;
      try {
        index = chunk == null ? null : cached.offsetIndex(chunk, IndexedFileReader.this);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (index == null) {
        throw new MissingOffsetIndexException(column);
      }
      return index;
    }
  }
}
