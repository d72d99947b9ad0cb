package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The footers of real files MeterStore wrote — an archival window, a small correction append, an
 * imported window — read with parquet-mr: bloom filters on {@code malo_id} sized to the distinct
 * values the file holds (exactly when the writer held the file's rows, within a factor of two of
 * that when it streamed them), none on files of fewer than 1,000 rows, every stored MaLo found in
 * its file's filter, none for a chunk that stays a dictionary (whole days per MaLo); and the
 * encodings MeterStore chose (v2 pages; in files of fewer than 10,000 rows delta-encoded timestamps
 * and values, in larger ones delta-encoded timestamps and the dictionary first for values), read
 * back.
 */
@ExtendWith(PostgresExtension.class)
class ParquetFootersIT {
  private static final Instant DAY = Instant.parse("2026-01-10T00:00:00Z");
  private static final Instant NEXT = DAY.plus(Duration.ofDays(1));
  private static final double FPP = 0.01;

  @TempDir Path warehouse;
  private ColdStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private ColdTable table(TestDatabase db, String name) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse));
    return store.createTable(TableDefinition.interval(name));
  }

  /** One quarter-hour of each of {@code malos} MaLos, in the hot tier's primary-key order. */
  private static List<StoredReading> oneEach(int malos, Instant from) {
    List<StoredReading> readings = new ArrayList<>();
    for (int m = 1; m <= malos; m++) {
      readings.add(
          ColdFixtures.stored(ColdFixtures.malo(m), from, "1." + (m % 1000), "20260111000000"));
    }
    return readings;
  }

  private static List<Object[]> rows(TableDefinition def, List<StoredReading> readings) {
    return readings.stream().map(r -> StoredRow.of(def, r)).collect(Collectors.toList());
  }

  @Test
  void anArchivalWindowHeldWholeCarriesAFilterSizedForItsDistinctMalos(TestDatabase db)
      throws IOException {
    ColdTable table = table(db, "window_exact");
    // 2,000 rows, fewer than a streaming block: the writer holds them all before the file ends.
    // One reading per MaLo, so the MaLo dictionary does not pay and the chunk keeps its filter.
    List<StoredReading> readings = oneEach(2_000, DAY);
    table.archive(new ArchiveRequest(DAY, NEXT, NOW, 1), rows(table.definition(), readings));

    List<DataFile> files = dataFiles(table.icebergTable());
    assertThat(files).hasSize(1);
    Footer f = Footer.read(files.get(0));
    assertThat(f.bitsetBytes("malo_id")).isEqualTo(expectedBitset(2_000));
    assertThat(f.holdsEvery("malo_id", malos(readings))).isTrue();
    // one channel: a dictionary-encoded chunk, for which Parquet writes no filter
    assertThat(f.bitsetBytes("obis_code")).isEqualTo(-1);
    f.assertEncodings();
  }

  @Test
  void aWindowOfWholeDaysPerMaloIsAllDictionaryAndCarriesNoFilter(TestDatabase db)
      throws IOException {
    ColdTable table = table(db, "window_dense");
    // 40 MaLos' whole day, 96 rows each: a dictionary chunk, whose filter Parquet would drop, so
    // none is built
    List<Object[]> rows = ColdFixtures.rows(table.definition(), 40, DAY, NEXT, 15);
    table.archive(new ArchiveRequest(DAY, NEXT, NOW, 1), rows);

    List<DataFile> files = dataFiles(table.icebergTable());
    assertThat(files).hasSize(1);
    Footer f = Footer.read(files.get(0));
    assertThat(f.anyBloomFilter()).isFalse();
    for (String column : List.of("malo_id", "obis_code")) {
      assertThat(f.chunks().get(column).getEncodingStats().hasNonDictionaryEncodedPages())
          .as(column)
          .isFalse();
    }
    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
  }

  @Test
  void aStreamedWindowKeepsTheSmallestFilterThatHoldsItsMalos(TestDatabase db) throws IOException {
    ColdTable table = table(db, "window_streamed");
    // 6,000 rows: the first block is written while more rows follow, so the file's distinct count
    // is estimated (for a whole chunk) and the adaptive filter picks its size when the file ends.
    List<StoredReading> readings = oneEach(6_000, DAY);
    table.archive(new ArchiveRequest(DAY, NEXT, NOW, 1), rows(table.definition(), readings));

    List<DataFile> files = dataFiles(table.icebergTable());
    assertThat(files).hasSize(1);
    Footer f = Footer.read(files.get(0));
    assertThat(f.bitsetBytes("malo_id"))
        .isBetween(expectedBitset(6_000), 2 * expectedBitset(6_000));
    assertThat(f.holdsEvery("malo_id", malos(readings))).isTrue();
    f.assertLargeFileEncodings();
  }

  @Test
  void aSmallCorrectionAppendCarriesNoFilter(TestDatabase db) throws IOException {
    ColdTable table = table(db, "small_append");
    table.archive(
        new ArchiveRequest(DAY, NEXT, NOW, 1), rows(table.definition(), oneEach(2_000, DAY)));
    List<StoredReading> late =
        List.of(
            ColdFixtures.stored(ColdFixtures.malo(7), DAY, "9.5", "20260115000000"),
            ColdFixtures.stored(ColdFixtures.malo(1900), DAY, "9.25", "20260115000000"));

    table.appendCorrections(late, NOW);

    List<DataFile> files = dataFiles(table.icebergTable());
    assertThat(files).hasSize(2);
    DataFile small = files.stream().filter(d -> d.recordCount() == 2).findFirst().orElseThrow();
    Footer f = Footer.read(small);
    assertThat(f.anyBloomFilter()).isFalse();
    assertThat(size(small)).isLessThan(16 * 1024);
  }

  @Test
  void anImportedWindowCarriesAFilterSizedForItsDistinctMalos(TestDatabase db) throws IOException {
    ColdTable table = table(db, "imported");
    List<StoredReading> readings = oneEach(3_000, DAY);

    table.importWindow(
        new ArchiveRequest(DAY, NEXT, NOW, 1),
        readings.stream().map(r -> StoredRow.of(table.definition(), r)).toList(),
        Encoders.CALLER,
        () -> true);

    List<DataFile> files = dataFiles(table.icebergTable());
    assertThat(files).hasSize(1);
    Footer f = Footer.read(files.get(0));
    assertThat(f.bitsetBytes("malo_id")).isEqualTo(expectedBitset(3_000));
    assertThat(f.holdsEvery("malo_id", malos(readings))).isTrue();
    f.assertEncodings();
  }

  @Test
  void theEncodedFilesReadBackThroughIceberg(TestDatabase db) throws IOException {
    ColdTable table = table(db, "read_back");
    // quarter-hours of 40 MaLos over two days: sorted timestamps, many distinct values
    List<Object[]> rows =
        ColdFixtures.rows(table.definition(), 40, DAY, NEXT.plus(Duration.ofDays(1)), 15);
    table.archive(new ArchiveRequest(DAY, NEXT.plus(Duration.ofDays(1)), NOW, 1), rows);

    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    for (DataFile file : dataFiles(table.icebergTable())) {
      Footer.read(file).assertV2();
    }
  }

  private static Set<String> malos(List<StoredReading> readings) {
    return readings.stream().map(r -> r.reading().maloId().toString()).collect(Collectors.toSet());
  }

  /** Parquet's bitset for {@code ndv} distinct values at 1 %: a power of two, at least 32 bytes. */
  private static long expectedBitset(long ndv) {
    long bytes = BlockSplitBloomFilter.optimalNumOfBits(ndv, FPP) / 8;
    long power = Long.highestOneBit(bytes);
    return Math.max(32, power < bytes ? power << 1 : power);
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file()));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }

  private static long size(DataFile file) throws IOException {
    return java.nio.file.Files.size(Path.of(file.location().replaceFirst("^file:", "")));
  }

  /** A file's footer and bloom filters. */
  private record Footer(Map<String, ColumnChunkMetaData> chunks, Map<String, BloomFilter> blooms) {
    static Footer read(DataFile file) throws IOException {
      Path path = Path.of(file.location().replaceFirst("^file:", ""));
      Map<String, ColumnChunkMetaData> chunks = new java.util.LinkedHashMap<>();
      Map<String, BloomFilter> blooms = new java.util.HashMap<>();
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
        List<BlockMetaData> groups = reader.getFooter().getBlocks();
        assertThat(groups).hasSize(1);
        for (ColumnChunkMetaData c : groups.get(0).getColumns()) {
          String name = c.getPath().toDotString();
          chunks.put(name, c);
          BloomFilter filter = reader.getBloomFilterDataReader(groups.get(0)).readBloomFilter(c);
          if (filter != null) {
            blooms.put(name, filter);
          }
        }
      }
      return new Footer(chunks, blooms);
    }

    /** The bitset size of {@code column}'s filter, -1 without one. */
    long bitsetBytes(String column) {
      BloomFilter f = blooms.get(column);
      return f == null ? -1 : f.getBitsetSize();
    }

    boolean anyBloomFilter() {
      return !blooms.isEmpty()
          || chunks.values().stream().anyMatch(c -> c.getBloomFilterOffset() >= 0);
    }

    boolean holdsEvery(String column, Set<String> values) {
      BloomFilter f = blooms.get(column);
      return values.stream().allMatch(v -> f.findHash(f.hash(Binary.fromString(v))));
    }

    /**
     * A file of fewer than 10,000 rows: v2 pages; from, to, recorded_at and value delta-encoded
     * without a dictionary.
     */
    void assertEncodings() {
      for (String column : List.of("from", "to", "recorded_at", "value")) {
        Set<Encoding> used = new TreeSet<>(chunks.get(column).getEncodings());
        used.remove(Encoding.RLE); // definition levels of the optional to
        assertThat(used).as(column).containsExactly(Encoding.DELTA_BINARY_PACKED);
      }
      assertThat(chunks.get("value").getPrimitiveType().getPrimitiveTypeName().name())
          .isEqualTo("INT64");
    }

    /**
     * A larger file: timestamps delta-encoded; the dictionary is tried first for value, with the v2
     * delta fallback.
     */
    void assertLargeFileEncodings() {
      for (String column : List.of("from", "to", "recorded_at")) {
        Set<Encoding> used = new TreeSet<>(chunks.get(column).getEncodings());
        used.remove(Encoding.RLE);
        assertThat(used).as(column).containsExactly(Encoding.DELTA_BINARY_PACKED);
      }
      assertThat(names(chunks.get("value")))
          .contains("RLE_DICTIONARY")
          .doesNotContain("PLAIN_DICTIONARY");
    }

    /** v2 pages only: no v1 dictionary encoding anywhere. */
    void assertV2() {
      for (ColumnChunkMetaData c : chunks.values()) {
        assertThat(names(c)).as(c.getPath().toDotString()).doesNotContain("PLAIN_DICTIONARY");
      }
    }

    private static List<String> names(ColumnChunkMetaData c) {
      return c.getEncodings().stream().map(Enum::name).toList();
    }
  }
}
