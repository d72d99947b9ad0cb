package org.meterstore.cold.internal.write;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
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
 * <p>The counts are exact when the writer holds every row of the file before the file ends, and an
 * estimate otherwise ({@link SortedChunkWriter}); an estimate that falls short raises the
 * false-positive rate of that file, it never makes a filter deny a value the file holds.
 *
 * @param rows the rows the file holds, or at most holds
 * @param distinct the distinct values per bloom column (the file's, or an upper estimate)
 */
record BloomSizing(long rows, Map<String, Long> distinct) {

  /** Files of fewer rows carry no bloom filter. */
  static final long MIN_ROWS = 1_000;

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
      p.put(fpp, props.getOrDefault(fpp, Double.toString(TableLayout.BLOOM_FPP)));
      p.put(
          TableProperties.PARQUET_BLOOM_FILTER_COLUMN_NDV_PREFIX + column.getKey(),
          Long.toString(Math.max(1, column.getValue())));
    }
    return p;
  }
}
