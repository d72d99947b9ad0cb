package org.meterstore.cold.internal.write;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * The bloom filters of one data file, sized to what it holds. Without a distinct count Parquet
 * gives every filter {@code write.parquet.bloom-filter-max-bytes} (1 MiB): a file of two late
 * corrections carried 2 MiB of filters. With the count it sizes the bitset for the table's
 * false-positive rate ({@link TableLayout#BLOOM_FPP}): 32 bytes up to 1 MiB, a power of two.
 *
 * <p>A file of fewer than {@link #MIN_ROWS} rows gets no filter. It is a few kilobytes: reading its
 * {@code malo_id} chunk costs what reading a filter would, its column bounds (exact for MaLo ids,
 * which are shorter than Iceberg's 16-character truncation) already prune it for every location
 * outside its range, and its dictionary (when its chunk is dictionary-encoded, which makes Parquet
 * drop the filter anyway) answers exactly.
 *
 * <p>The counts are exact when the writer holds every row of the file before the file ends: the
 * filter is then sized for them. Otherwise ({@link SortedChunkWriter} streams a window into files
 * that stay open across blocks) they are an upper estimate, and Parquet's adaptive filter is used
 * with the estimate's size as its largest candidate: it fills {@link #CANDIDATES} filters of
 * halving sizes at once and, when the file ends, keeps the smallest that holds the distinct values
 * it saw at the rate (or the largest, if the estimate fell short: then that file's false-positive
 * rate is higher; a filter never denies a value the file holds).
 *
 * <p>A column whose chunk surely stays dictionary-encoded gets no filter at all ({@link
 * #dictionaryOnly}): Parquet writes a chunk's filter only when one of its pages is in another
 * encoding, so the filter of such a chunk was built, a hash per value into each candidate, and
 * dropped when the file ended. That was a ninth of an import's CPU (a month of 1,000 locations: a
 * few hundred distinct MaLos and a handful of channels per file, every chunk a dictionary).
 *
 * @param rows the rows the file holds, or at most holds
 * @param distinct the distinct values per bloom column: the file's, or an upper estimate
 * @param exact whether {@code rows} and {@code distinct} are the file's
 * @param longest the longest value per bloom column, in characters, among those counted
 */
record BloomSizing(
    long rows, Map<String, Long> distinct, boolean exact, Map<String, Integer> longest) {

  /** Files of fewer rows carry no bloom filter. */
  static final long MIN_ROWS = 1_000;

  /** Candidate sizes of an adaptive filter: the estimate's, down to a sixteenth of it. */
  static final int CANDIDATES = 5;

  /**
   * Rows per distinct value from which a chunk's first page keeps its dictionary. Parquet judges
   * the dictionary on a chunk's first page (about two locations' rows, {@code
   * TableLayout.pageRows}) and falls back when the page's ids and dictionary are not smaller than
   * its plain values; a file sorted by MaLo with this many rows per value passes that by far.
   */
  static final long ROWS_PER_VALUE = 16;

  BloomSizing {
    distinct = Map.copyOf(distinct);
    longest = Map.copyOf(longest);
  }

  /**
   * Whether a chunk of {@code rows} rows and {@code distinct} distinct values of at most {@code
   * longestChars} characters surely stays dictionary-encoded: at least {@link #ROWS_PER_VALUE} rows
   * per value, and a dictionary (four bytes of length and at most three of UTF-8 per character per
   * value) of at most a quarter of the {@code dictionaryBytes} Parquet allows before it falls back
   * (a quarter: {@code distinct} may be an estimate).
   */
  static boolean dictionaryOnly(long rows, long distinct, int longestChars, long dictionaryBytes) {
    return rows >= ROWS_PER_VALUE * Math.max(1, distinct)
        && 4 * distinct * (4 + 3L * longestChars) <= dictionaryBytes;
  }

  /**
   * The write properties for this file, overriding the table's: per bloom column the table enables,
   * its distinct count and false-positive rate, or the filter disabled for a small file.
   */
  Map<String, String> properties(Table table) {
    Map<String, String> p = new LinkedHashMap<>();
    Map<String, String> props = table.properties();
    long largest = 0;
    for (Map.Entry<String, Long> column : distinct.entrySet()) {
      String enabled = TableProperties.PARQUET_BLOOM_FILTER_COLUMN_ENABLED_PREFIX + column.getKey();
      if (!Boolean.parseBoolean(props.get(enabled))) {
        continue;
      }
      if (rows < MIN_ROWS || dictionaryOnly(props, column.getKey(), column.getValue())) {
        p.put(enabled, "false");
        continue;
      }
      String fpp = TableProperties.PARQUET_BLOOM_FILTER_COLUMN_FPP_PREFIX + column.getKey();
      String rate = props.getOrDefault(fpp, Double.toString(TableLayout.BLOOM_FPP));
      p.put(fpp, rate);
      long ndv = Math.max(1, column.getValue());
      if (exact) {
        p.put(
            TableProperties.PARQUET_BLOOM_FILTER_COLUMN_NDV_PREFIX + column.getKey(),
            Long.toString(ndv));
      } else {
        largest = Math.max(largest, bitsetBytes(ndv, Double.parseDouble(rate)));
      }
    }
    if (largest > 0) {
      // one maximum for every column: the largest estimate's
      p.put(TableProperties.PARQUET_BLOOM_FILTER_ADAPTIVE_ENABLED, "true");
      p.put(TableProperties.PARQUET_BLOOM_FILTER_MAX_BYTES, Long.toString(largest));
    }
    return p;
  }

  private boolean dictionaryOnly(Map<String, String> props, String column, long ndv) {
    String encoding =
        props.get(TableProperties.PARQUET_DICT_ENCODING_ENABLED_COLUMN_PREFIX + column);
    long dictionaryBytes =
        Long.parseLong(
            props.getOrDefault(
                TableProperties.PARQUET_DICT_SIZE_BYTES,
                Long.toString(TableProperties.PARQUET_DICT_SIZE_BYTES_DEFAULT)));
    Integer chars = longest.get(column);
    return !"false".equalsIgnoreCase(encoding)
        && chars != null
        && dictionaryOnly(rows, ndv, chars, dictionaryBytes);
  }

  /**
   * The bitset Parquet gives {@code ndv} distinct values at {@code fpp}: the optimal bits rounded
   * up to a power of two of bytes, at least 32 bytes and at most 128 MiB (the table's maximum, 1
   * MiB by default, caps it further).
   */
  static long bitsetBytes(long ndv, double fpp) {
    int bytes = BlockSplitBloomFilter.optimalNumOfBits(ndv, fpp) / 8;
    long power = Long.highestOneBit(Math.max(bytes, 1));
    if (power < bytes) {
      power <<= 1;
    }
    return Math.max(
        BlockSplitBloomFilter.LOWER_BOUND_BYTES,
        Math.min(power, BlockSplitBloomFilter.UPPER_BOUND_BYTES));
  }
}
