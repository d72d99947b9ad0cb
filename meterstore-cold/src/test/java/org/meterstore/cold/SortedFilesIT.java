package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The files a write leaves: every file sorted by {@code (malo_id, from)} whatever the order of the
 * input, and for input in the hot tier's primary-key order (MaLo, channel, {@code from}) few files
 * with disjoint MaLo ranges, written a block of MaLos at a time.
 */
@ExtendWith(PostgresExtension.class)
class SortedFilesIT {
  private static final Instant JAN31 = Instant.parse("2026-01-31T00:00:00Z");
  private static final Instant FEB02 = Instant.parse("2026-02-02T00:00:00Z");
  private static final String[] CHANNELS = {"1-0:1.8.0", "1-0:2.8.0"};

  @TempDir java.nio.file.Path warehouse;
  private ColdStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private ColdTable table(TestDatabase db, String name, int chunkRows) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse).withChunkRows(chunkRows));
    return store.createTable(TableDefinition.interval(name));
  }

  @Test
  void primaryKeyOrderGivesOneFilePerBlockOfMalosAndPartitionWithDisjointRanges(TestDatabase db)
      throws IOException {
    ColdTable table = table(db, "pk_order", 1000);
    // 10 MaLos × 2 channels × 2 days across a month boundary: 384 rows per MaLo.
    List<Object[]> rows = primaryKeyOrder(table.definition(), 1, 10, JAN31, FEB02, 15);

    ArchiveResult result = table.archive(new ArchiveRequest(JAN31, FEB02, NOW, 1), rows);

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    List<DataFile> files = filesSortedAndChecked(table.icebergTable());
    // Blocks of whole MaLos of at least 500 rows (half a chunk): MaLos 1-2, 3-4, … Files end once
    // 1,000 rows are open, after a block: MaLos 1-4, 5-8 and 9-10, each in the January and the
    // February partition.
    assertThat(files).hasSize(6);
    assertDisjointMaloRanges(table.icebergTable(), files);
  }

  @Test
  void aMaloOfMoreRowsThanAChunkStillGivesSortedFiles(TestDatabase db) throws IOException {
    ColdTable table = table(db, "big_malo", 100);
    // 2 MaLos × 2 channels × 2 days: 384 rows per MaLo against chunks of 100.
    List<Object[]> rows = primaryKeyOrder(table.definition(), 1, 2, JAN31, FEB02, 15);

    table.archive(new ArchiveRequest(JAN31, FEB02, NOW, 1), rows);

    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    filesSortedAndChecked(table.icebergTable());
  }

  @Test
  void inputThatStopsBeingGroupedAfterBlocksWereWrittenIsSortedInChunks(TestDatabase db)
      throws IOException {
    ColdTable table = table(db, "regrouped", 200);
    TableDefinition def = table.definition();
    Instant day = Instant.parse("2026-01-31T00:00:00Z");
    Instant next = day.plus(Duration.ofDays(1));
    // MaLos 1..8 with one channel in key order (written as blocks), then MaLos 3..5 again with the
    // second channel: the input is no longer grouped and the rest is sorted in chunks.
    List<Object[]> rows = new ArrayList<>();
    for (int m = 1; m <= 8; m++) {
      addDay(rows, def, m, CHANNELS[0], day, next, 15);
    }
    for (int m = 3; m <= 5; m++) {
      addDay(rows, def, m, CHANNELS[1], day, next, 15);
    }

    table.archive(new ArchiveRequest(day, next, NOW, 1), rows);

    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    filesSortedAndChecked(table.icebergTable());
  }

  @Test
  void moreMonthsThanOpenFilesStillGivesSortedFilesAndEveryRow(TestDatabase db) throws IOException {
    ColdTable table = table(db, "many_months", 100_000);
    Instant from = Instant.parse("2025-01-01T00:00:00Z");
    Instant to = Instant.parse("2026-01-01T00:00:00Z");
    // Daily readings of 3 MaLos over a year, each MaLo's in time order: twelve month partitions,
    // more than the writer keeps open at once, visited again for every MaLo.
    List<Object[]> rows = primaryKeyOrder(table.definition(), 1, 3, from, to, 24 * 60);

    table.archive(new ArchiveRequest(from, to, NOW, 1), rows);

    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    List<DataFile> files = filesSortedAndChecked(table.icebergTable());
    assertThat(files.stream().map(f -> f.partition().toString()).distinct()).hasSize(12);
  }

  @Test
  void aRowRefusedAfterFilesWereWrittenLeavesNoFileAndNoCommit(TestDatabase db) throws IOException {
    ColdTable table = table(db, "refused_late", 1000);
    TableDefinition def = table.definition();
    Instant day = Instant.parse("2026-01-31T00:00:00Z");
    Instant next = day.plus(Duration.ofDays(1));
    // Twelve MaLos in key order (blocks written, files open and some closed), then one row of a
    // later MaLo outside the window.
    List<Object[]> rows = primaryKeyOrder(def, 1, 12, day, next, 15);
    addDay(rows, def, 13, CHANNELS[0], next, next.plus(Duration.ofMinutes(15)), 15);

    assertThatThrownBy(() -> table.archive(new ArchiveRequest(day, next, NOW, 1), rows))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("outside the archival window");
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
    try (java.util.stream.Stream<java.nio.file.Path> onDisk = Files.walk(warehouse)) {
      assertThat(onDisk.filter(p -> p.toString().endsWith(".parquet"))).isEmpty();
    }
  }

  /**
   * Rows of MaLos {@code first..last} in the hot tier's primary-key order: MaLo, channel, {@code
   * from}; a reading every {@code stepMinutes} in {@code [from, to)}.
   */
  private static List<Object[]> primaryKeyOrder(
      TableDefinition def, int first, int last, Instant from, Instant to, int stepMinutes) {
    List<Object[]> rows = new ArrayList<>();
    for (int m = first; m <= last; m++) {
      for (String channel : CHANNELS) {
        addDay(rows, def, m, channel, from, to, stepMinutes);
      }
    }
    return rows;
  }

  private static void addDay(
      List<Object[]> rows,
      TableDefinition def,
      int malo,
      String channel,
      Instant from,
      Instant to,
      int stepMinutes) {
    for (Instant t = from; t.isBefore(to); t = t.plus(Duration.ofMinutes(stepMinutes))) {
      Reading r =
          Reading.builder()
              .malo(ColdFixtures.malo(malo))
              .obis(channel)
              .commodity(Commodity.STROM)
              .interval(t, t.plus(Duration.ofMinutes(15)))
              .value((malo * 7 + t.getEpochSecond() / 900 % 13) + ".25")
              .version("20260102000000")
              .operator(ColdFixtures.OPERATOR)
              .build();
      rows.add(StoredRow.of(def, StoredReading.accept(r, NOW)));
    }
  }

  /** Every data file, each checked to be Parquet, to carry the sort order and to be sorted. */
  private static List<DataFile> filesSortedAndChecked(Table iceberg) throws IOException {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        iceberg.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        files.add(file);
        assertThat(file.location()).endsWith(".parquet");
        assertThat(file.sortOrderId()).isEqualTo(iceberg.sortOrder().orderId());
        ColdFixtures.assertSorted(ColdFixtures.readFile(iceberg, file.location()));
      }
    }
    return files;
  }

  /** Within each partition, the files' MaLo ranges do not overlap. */
  private static void assertDisjointMaloRanges(Table iceberg, List<DataFile> files) {
    int maloId = iceberg.schema().findField("malo_id").fieldId();
    Map<String, List<String[]>> byPartition = new TreeMap<>();
    for (DataFile f : files) {
      String lower = string(f.lowerBounds().get(maloId));
      String upper = string(f.upperBounds().get(maloId));
      byPartition
          .computeIfAbsent(f.partition().toString(), k -> new ArrayList<>())
          .add(new String[] {lower, upper});
    }
    for (List<String[]> ranges : byPartition.values()) {
      ranges.sort(Comparator.comparing(r -> r[0]));
      for (int i = 1; i < ranges.size(); i++) {
        assertThat(ranges.get(i)[0]).isGreaterThan(ranges.get(i - 1)[1]);
      }
    }
  }

  private static String string(ByteBuffer bound) {
    return Conversions.fromByteBuffer(Types.StringType.get(), bound).toString();
  }
}
