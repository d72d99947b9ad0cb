package org.meterstore.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;

/**
 * Where the bytes of a set of Parquet files go, read from their footers: each column's chunks
 * (compressed, as stored), the bloom filters (their length as the footer records it), and the rest
 * of each file (footer, magic). The storage lines report whole files; this explains them.
 *
 * @param files the files read
 * @param fileBytes their whole sizes
 * @param columnBytes stored bytes per column, in schema order
 * @param encodings the encodings each column's chunks used
 * @param bloomBytes bloom filter bytes (header and bitset)
 * @param filesWithBloom files that carry at least one bloom filter
 */
record FooterStats(
    int files,
    long fileBytes,
    Map<String, Long> columnBytes,
    Map<String, Set<String>> encodings,
    long bloomBytes,
    int filesWithBloom) {

  /** Reads the footers of {@code paths} (local files). */
  static FooterStats of(List<String> paths) throws IOException {
    long total = 0;
    long bloom = 0;
    int withBloom = 0;
    Map<String, Long> columns = new LinkedHashMap<>();
    Map<String, Set<String>> encodings = new LinkedHashMap<>();
    for (String p : paths) {
      Path path = Path.of(p);
      total += Files.size(path);
      boolean any = false;
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
        for (BlockMetaData block : reader.getFooter().getBlocks()) {
          for (ColumnChunkMetaData c : block.getColumns()) {
            String name = c.getPath().toDotString();
            columns.merge(name, c.getTotalSize(), Long::sum);
            Set<String> seen = encodings.computeIfAbsent(name, k -> new TreeSet<>());
            c.getEncodings().forEach(e -> seen.add(e.name()));
            if (c.getBloomFilterOffset() >= 0) {
              any = true;
              bloom += Math.max(0, c.getBloomFilterLength());
            }
          }
        }
      }
      withBloom += any ? 1 : 0;
    }
    return new FooterStats(paths.size(), total, columns, encodings, bloom, withBloom);
  }

  /** The bytes of column chunks, all columns. */
  long chunkBytes() {
    return columnBytes.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Footers, magic and anything else that is neither a column chunk nor a bloom filter. */
  long otherBytes() {
    return fileBytes - chunkBytes() - bloomBytes;
  }

  /** One line: whole file, chunks, blooms and the rest per reading, then each column. */
  String describe(long rows) {
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%d files, %.2f B/reading whole files = %.2f column chunks + %.2f bloom filters"
                    + " (%d of %d files carry one) + %.2f footers; per column:",
                files,
                (double) fileBytes / rows,
                (double) chunkBytes() / rows,
                (double) bloomBytes / rows,
                filesWithBloom,
                files,
                (double) otherBytes() / rows));
    columnBytes.forEach(
        (name, bytes) ->
            s.append(
                String.format(
                    Locale.ROOT,
                    " %s %.3f %s;",
                    name,
                    (double) bytes / rows,
                    String.join("+", encodings.get(name)))));
    return s.toString();
  }
}
