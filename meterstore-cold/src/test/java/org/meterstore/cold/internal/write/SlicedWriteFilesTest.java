package org.meterstore.cold.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.LocalTables;
import org.meterstore.cold.commit.Encoders;
import org.meterstore.testing.workload.Workload;

/**
 * A chunk encoded in slices on two threads writes real Parquet files into a real Iceberg table: one
 * writer per slice, disjoint MaLo ranges; and when a slice fails — on the calling thread or on the
 * encoder's — the files every slice wrote are deleted before the failure reaches the caller, so a
 * failed import leaves no file behind for orphan removal to find.
 */
class SlicedWriteFilesTest {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant DAY = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-10T00:00:00Z");

  @TempDir Path dir;
  private ExecutorService executor;
  private Encoders encoders;
  private Table table;
  private List<Object[]> rows;
  private int malo;

  @BeforeEach
  void tableAndRows() {
    executor = Executors.newSingleThreadExecutor();
    encoders = new Encoders(executor, 1);
    table = LocalTables.create(dir.resolve("table"), TABLE, 128L << 20);
    malo = TABLE.columns().stream().map(c -> c.name()).toList().indexOf("malo_id");
    // 400 locations of a day: 38,400 rows grouped by ascending MaLo, as after classification
    Function<StoredReading, Object[]> converter = StoredRow.converter(TABLE);
    rows = new ArrayList<>();
    for (int m = 1; m <= 400; m++) {
      for (int q = 0; q < 96; q++) {
        Instant from = DAY.plus(Duration.ofMinutes(15L * q));
        Reading r =
            Reading.builder()
                .malo(Workload.malo(m))
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(from, from.plus(Duration.ofMinutes(15)))
                .value(m + ".25")
                .version("20260105000000")
                .operator(Workload.OPERATOR)
                .build();
        rows.add(converter.apply(StoredReading.accept(r, NOW)));
      }
    }
    assertThat(SlicedWrite.slices(rows, malo, 2)).hasSize(2);
  }

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void twoSlicesWriteFilesOfDisjointLocationsHoldingEveryRow() throws IOException {
    SortedChunkWriter.Written written = write(row -> {});
    assertThat(written.files()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(written.files().stream().mapToLong(DataFile::recordCount).sum())
        .isEqualTo(rows.size());
    assertThat(parquetFiles()).hasSameSizeAs(written.files());
    List<DataFile> byLowest = new ArrayList<>(written.files());
    byLowest.sort((a, b) -> lowest(a).compareTo(lowest(b)));
    for (int i = 1; i < byLowest.size(); i++) {
      assertThat(highest(byLowest.get(i - 1))).isLessThan(lowest(byLowest.get(i)));
    }
  }

  @Test
  void aFailureInTheEncodersSliceDeletesTheCallersFilesToo() throws IOException {
    Object[] inSecondSlice = SlicedWrite.slices(rows, malo, 2).get(1).get(5_000);
    assertFailsLeavingNoFile(inSecondSlice);
  }

  @Test
  void aFailureInTheCallersSliceDeletesTheEncodersFilesToo() throws IOException {
    Object[] nearTheEnd = SlicedWrite.slices(rows, malo, 2).get(0).get(19_000);
    assertFailsLeavingNoFile(nearTheEnd);
  }

  private void assertFailsLeavingNoFile(Object[] poisoned) throws IOException {
    assertThatThrownBy(
            () ->
                write(
                    row -> {
                      if (row == poisoned) {
                        throw new IllegalStateException("refused row");
                      }
                    }))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refused row");
    assertThat(parquetFiles()).isEmpty();
  }

  private SortedChunkWriter.Written write(Consumer<Object[]> check) {
    return SlicedWrite.write(
        () -> new SortedChunkWriter(table, TABLE, 1_000_000, 128L << 20),
        rows,
        malo,
        check,
        encoders,
        table.io());
  }

  private List<Path> parquetFiles() throws IOException {
    Path data = dir.resolve("table/data");
    if (!Files.exists(data)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(f -> f.toString().endsWith(".parquet")).toList();
    }
  }

  private String lowest(DataFile f) {
    return bound(f, true);
  }

  private String highest(DataFile f) {
    return bound(f, false);
  }

  private String bound(DataFile f, boolean lower) {
    int id = table.schema().findField("malo_id").fieldId();
    var buffer = (lower ? f.lowerBounds() : f.upperBounds()).get(id);
    return java.nio.charset.StandardCharsets.UTF_8.decode(buffer.duplicate()).toString();
  }
}
