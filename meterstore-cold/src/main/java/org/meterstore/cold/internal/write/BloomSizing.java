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
 * @param rows the rows the file holds, or at most holds
 * @param distinct the distinct values per bloom column: the file's, or an upper estimate
 * @param exact whether {@code rows} and {@code distinct} are the file's
 */
record BloomSizing(long rows, Map<String, Long> distinct, boolean exact) {

  /** Files of fewer rows carry no bloom filter. */
  static final long MIN_ROWS = 1_000;

  /** Candidate sizes of an adaptive filter: the estimate's, down to a sixteenth of it. */
  static final int CANDIDATES = 5;

  BloomSizing {
    distinct = Map.copyOf(distinct);
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
      if (rows < MIN_ROWS) {
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
