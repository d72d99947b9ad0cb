package org.meterstore.cold.scan;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.api.Binary;

/**
 * One file's metadata as a {@link FooterCache} holds it: the parsed footer (shared read-only by
 * every reader of the file) and the page indexes of its column chunks, read on first use and kept
 * with the footer. Thread-safe.
 */
final class CachedFile {
  private final FooterCache cache;
  private final FooterCache.Key key;
  private final ParquetMetadata footer;
  private long weight; // guarded by the cache
  private volatile boolean used; // since the cache's eviction last passed over it
  private final ConcurrentHashMap<Long, Optional<ColumnIndex>> columnIndexes =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Optional<OffsetIndex>> offsetIndexes =
      new ConcurrentHashMap<>();

  private final ConcurrentHashMap<Long, Optional<Dictionary>> dictionaries =
      new ConcurrentHashMap<>();

  /** A decoded dictionary and the bytes it holds. */
  record Decoded(Dictionary dictionary, long bytes) {}

  private final ConcurrentHashMap<Long, Optional<Set<Binary>>> textValues =
      new ConcurrentHashMap<>();

  private final ConcurrentHashMap<Long, String[]> textStrings = new ConcurrentHashMap<>();

  /**
   * The decoded strings of the text dictionary of the chunk starting at {@code chunkStart}, one
   * slot per entry of its {@code size}, filled by readers as they decode entries (see {@link
   * ParquetTextDictionary}); kept with the footer.
   */
  String[] textStrings(long chunkStart, int size) {
    String[] held = textStrings.get(chunkStart);
    if (held == null || held.length != size) {
      String[] fresh = new String[size];
      held = textStrings.putIfAbsent(chunkStart, fresh);
      if (held == null) {
        held = fresh;
        // the slots and, once filled, about as many short strings
        cache.grew(this, 64 + 64L * size);
      } else if (held.length != size) {
        return fresh;
      }
    }
    return held;
  }

  /** Reads one text chunk's dictionary values. */
  @FunctionalInterface
  interface TextValuesRead {
    Set<Binary> read() throws IOException;
  }

  /** Reads and decodes one chunk's dictionary. */
  @FunctionalInterface
  interface DictionaryRead {
    Decoded read() throws IOException;
  }

  CachedFile(FooterCache cache, FooterCache.Key key, ParquetMetadata footer, long weight) {
    this.cache = cache;
    this.key = key;
    this.footer = footer;
    this.weight = weight;
  }

  FooterCache.Key key() {
    return key;
  }

  /** The whole file's footer: every row group, whatever split is read. */
  ParquetMetadata footer() {
    return footer;
  }

  long weight() {
    return weight;
  }

  /** Marks the file used (a hit); written only when it changes, so hits share the line. */
  void used() {
    if (!used) {
      used = true;
    }
  }

  /** Whether the file was used since the last pass; clears the mark. */
  boolean passOver() {
    boolean was = used;
    used = false;
    return was;
  }

  void addWeight(long delta) {
    weight += delta;
  }

  /** The column index of {@code chunk}, read through {@code reader} once; null when absent. */
  ColumnIndex columnIndex(ColumnChunkMetaData chunk, ParquetFileReader reader) throws IOException {
    Optional<ColumnIndex> held = columnIndexes.get(chunk.getStartingPos());
    if (held == null) {
      ColumnIndex read = reader.readColumnIndex(chunk);
      held = Optional.ofNullable(read);
      if (columnIndexes.putIfAbsent(chunk.getStartingPos(), held) == null) {
        cache.grew(this, read == null ? 16 : weigh(read));
      }
    }
    return held.orElse(null);
  }

  /** The offset index of {@code chunk}, read through {@code reader} once; null when absent. */
  OffsetIndex offsetIndex(ColumnChunkMetaData chunk, ParquetFileReader reader) throws IOException {
    Optional<OffsetIndex> held = offsetIndexes.get(chunk.getStartingPos());
    if (held == null) {
      OffsetIndex read = reader.readOffsetIndex(chunk);
      held = Optional.ofNullable(read);
      if (offsetIndexes.putIfAbsent(chunk.getStartingPos(), held) == null) {
        cache.grew(this, read == null ? 16 : 64 + 40L * read.getPageCount());
      }
    }
    return held.orElse(null);
  }

  /**
   * The decoded dictionary of the column chunk starting at {@code chunkStart}, decoded by {@code
   * read} once and kept with the footer; null when the chunk has none. Only for dictionaries that
   * copy their values out of the page (numbers), so nothing kept points into a page buffer.
   */
  Dictionary dictionary(long chunkStart, DictionaryRead read) throws IOException {
    Optional<Dictionary> held = dictionaries.get(chunkStart);
    if (held == null) {
      Decoded decoded = read.read();
      held = Optional.ofNullable(decoded == null ? null : decoded.dictionary());
      if (dictionaries.putIfAbsent(chunkStart, held) == null) {
        cache.grew(this, 64 + (decoded == null ? 0 : decoded.bytes()));
      }
    }
    return held.orElse(null);
  }

  /**
   * The values of the text dictionary of the column chunk starting at {@code chunkStart}, read by
   * {@code read} once (copied out of the page) and kept with the footer; null without one.
   */
  Set<Binary> textValues(long chunkStart, TextValuesRead read) throws IOException {
    Optional<Set<Binary>> held = textValues.get(chunkStart);
    if (held == null) {
      Set<Binary> values = read.read();
      held = Optional.ofNullable(values == null ? null : Set.copyOf(values));
      if (textValues.putIfAbsent(chunkStart, held) == null) {
        long bytes = 64;
        if (values != null) {
          for (Binary b : values) {
            bytes += 48 + b.length();
          }
        }
        cache.grew(this, bytes);
      }
    }
    return held.orElse(null);
  }

  private static long weigh(ColumnIndex index) {
    long bytes = 64;
    for (ByteBuffer b : index.getMinValues()) {
      bytes += 24 + b.remaining();
    }
    for (ByteBuffer b : index.getMaxValues()) {
      bytes += 24 + b.remaining();
    }
    return bytes + 16L * index.getNullPages().size();
  }
}
