package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportCursor;
import org.meterstore.imports.ImportSource;

/**
 * A directory or a list of files as one import source: its CSV and Parquet files read one after the
 * other by path name, markers and hidden files left out, anything else refused, and an error naming
 * the file it is in. Files only, no database.
 */
class ImportDirectoryTest {
  private static final TableDefinition TABLE =
      CatalogFixture.table("imported", Duration.ofDays(1), Duration.ofHours(1));
  private static final Instant DAY = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-04-10T00:00:00Z");

  @TempDir Path dir;

  @Test
  void readsEveryCsvAndParquetFileByPathNameAndLeavesOutMarkers() throws Exception {
    Path sub = Files.createDirectories(dir.resolve("2026-03-b"));
    ImportCsv.write(dir.resolve("2026-03-a.csv"), TABLE, rows(0, 3));
    ImportParquet.write(sub.resolve("part-0.parquet"), TABLE, rows(3, 5), ImportParquet.Style.COLD);
    ImportCsv.write(dir.resolve("2026-03-c.CSV"), TABLE, rows(5, 6));
    Files.writeString(dir.resolve("_SUCCESS"), "");
    Files.writeString(sub.resolve(".part-0.parquet.crc"), "x");
    Files.createDirectories(dir.resolve(".cache")).resolve("notes.txt").toFile().createNewFile();

    ImportSource source = ImportSource.of(dir);

    assertThat(source.name()).isEqualTo(dir + " (3 files)");
    assertThat(froms(source)).isEqualTo(expectedFroms(0, 6));
    assertThat(froms(source)).as("a second pass reads the same").isEqualTo(expectedFroms(0, 6));
  }

  @Test
  void aListOfFilesIsReadInItsOrder() {
    Path late = ImportCsv.write(dir.resolve("a-late.csv"), TABLE, rows(4, 6));
    Path early = ImportCsv.write(dir.resolve("b-early.csv"), TABLE, rows(0, 4));

    ImportSource source = ImportSource.files(List.of(early, late));

    assertThat(froms(source)).isEqualTo(expectedFroms(0, 6));
    assertThat(source.name()).isEqualTo(early + " and 1 more");
  }

  @Test
  void aBadRecordIsNamedByItsFileAndLine() throws Exception {
    ImportCsv.write(dir.resolve("1.csv"), TABLE, rows(0, 2));
    Path bad = ImportCsv.write(dir.resolve("2.csv"), TABLE, rows(2, 4));
    List<String> lines = new ArrayList<>(Files.readAllLines(bad));
    lines.set(2, lines.get(2).replaceFirst("^[^,]*", "51238696782"));
    Files.write(bad, lines);

    assertThatThrownBy(() -> froms(ImportSource.directory(dir)))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("Cannot import " + bad + " line 3");
  }

  @Test
  void aFailureFarIntoAFileComesAfterEveryReadingBeforeItAndNamesItsLine() throws Exception {
    Path file = ImportCsv.write(dir.resolve("long.csv"), TABLE, rows(0, 3_000));
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    lines.set(2_499, lines.get(2_499).replaceFirst("^[^,]*", "51238696782")); // line 2,500
    Files.write(file, lines);
    List<Instant> read = new ArrayList<>();
    try (ImportCursor c = ImportSource.of(file).open(TABLE, NOW)) {
      assertThatThrownBy(
              () -> {
                for (StoredReading r = c.next(); r != null; r = c.next()) {
                  read.add(r.reading().from());
                  assertThat(c.position()).isEqualTo(read.size() + 1);
                }
              })
          .isInstanceOf(MeterStoreException.class)
          .hasMessageContaining("Cannot import " + file + " line 2500");
    }
    assertThat(read).isEqualTo(expectedFroms(0, 2_498));

    // a quote left open at the end: every record before it, then the error
    Files.write(file, lines.subList(0, 2_000));
    Files.writeString(file, "\"51238696781,open\n", java.nio.file.StandardOpenOption.APPEND);
    read.clear();
    try (ImportCursor c = ImportSource.of(file).open(TABLE, NOW)) {
      assertThatThrownBy(
              () -> {
                for (StoredReading r = c.next(); r != null; r = c.next()) {
                  read.add(r.reading().from());
                }
              })
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("line 2001: a quoted field is not closed");
    }
    assertThat(read).isEqualTo(expectedFroms(0, 1_999));
  }

  @Test
  void aFileThatStartsWithAByteOrderMarkIsRead() throws Exception {
    Path file = ImportCsv.write(dir.resolve("excel.csv"), TABLE, rows(0, 3));
    byte[] text = Files.readAllBytes(file);
    byte[] marked = new byte[text.length + 3];
    marked[0] = (byte) 0xEF;
    marked[1] = (byte) 0xBB;
    marked[2] = (byte) 0xBF;
    System.arraycopy(text, 0, marked, 3, text.length);
    Files.write(file, marked);

    assertThat(froms(ImportSource.of(file))).isEqualTo(expectedFroms(0, 3));
  }

  @Test
  void anotherFileRefusesTheDirectory() throws Exception {
    ImportCsv.write(dir.resolve("1.csv"), TABLE, rows(0, 2));
    Files.writeString(dir.resolve("README.txt"), "exported 2026-04-01");

    assertThatThrownBy(() -> ImportSource.directory(dir))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("'README.txt'")
        .hasMessageContaining("must be a .csv or .parquet file");
  }

  @Test
  void aDirectoryWithoutFilesIsRefused() throws Exception {
    Files.writeString(dir.resolve("_SUCCESS"), "");

    assertThatThrownBy(() -> ImportSource.of(dir))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("holds no .csv or .parquet file");
    assertThatThrownBy(() -> ImportSource.files(List.of()))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("at least one file");
  }

  /** Quarter-hours {@code first} to {@code end} (exclusive) of meter 1 from {@link #DAY}. */
  private static List<Object[]> rows(int first, int end) {
    List<Object[]> out = new ArrayList<>();
    for (int i = first; i < end; i++) {
      Instant from = DAY.plus(Duration.ofMinutes(15L * i));
      out.add(
          StoredRow.of(TABLE, StoredReading.accept(ImportCsv.quarterHour(1, from, i + ".5"), NOW)));
    }
    return out;
  }

  private static List<Instant> expectedFroms(int first, int end) {
    List<Instant> out = new ArrayList<>();
    for (int i = first; i < end; i++) {
      out.add(DAY.plus(Duration.ofMinutes(15L * i)));
    }
    return out;
  }

  private static List<Instant> froms(ImportSource source) {
    List<Instant> out = new ArrayList<>();
    try (ImportCursor c = source.open(TABLE, NOW)) {
      for (StoredReading r = c.next(); r != null; r = c.next()) {
        out.add(r.reading().from());
      }
    }
    return out;
  }
}
