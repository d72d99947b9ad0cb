package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.ReadingBuilder;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * {@code importHistory} from Parquet against real PostgreSQL and Iceberg: a file in the cold tier's
 * types, in Spark's (INT96, binary decimals) and all in strings imports exactly like the same rows
 * as CSV (same result, same stored rows); the cold tier's own data files re-import into another
 * table row for row; a bad record names its row, a floating-point {@code value} column and an
 * unknown column are refused, each with nothing written.
 */
@ExtendWith(PostgresExtension.class)
class ImportParquetIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-02-20T00:00:00Z");
  private static final Instant FIRST_DAY = Instant.parse("2026-03-10T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-20T00:00:00Z");
  private static final int METERS = 8;
  private static final int DAYS = 3;

  @TempDir static Path warehouse;
  @TempDir static Path files;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aParquetFileImportsExactlyLikeTheSameRowsAsCsvInEachStyle() {
    TableDefinition csv = table("from_csv");
    TableDefinition cold = table("from_cold_types");
    TableDefinition spark = table("from_spark_types");
    TableDefinition text = table("from_text");
    try (MeterCatalog catalog = d.catalog(List.of(csv, cold, spark, text), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Object[]> rows = rows(csv);
      ImportOptions options = ImportOptions.DEFAULTS.withChunkRows(500);
      Path csvFile = ImportCsv.write(files.resolve("rows.csv"), csv, rows);
      ImportResult expected =
          catalog.table(csv.name()).importHistory(ImportSource.of(csvFile), NOW, options);
      assertThat(expected.inserted()).isEqualTo(rows.size());
      assertThat(expected.chunks()).isGreaterThan(1);
      List<Object[]> stored = ImportCsv.sorted(d.cold.createTable(csv).read());
      assertThat(stored).hasSameSizeAs(rows);

      for (var c :
          List.of(
              new Object[] {cold, ImportParquet.Style.COLD},
              new Object[] {spark, ImportParquet.Style.SPARK},
              new Object[] {text, ImportParquet.Style.TEXT})) {
        TableDefinition t = (TableDefinition) c[0];
        Path file =
            ImportParquet.write(
                files.resolve(t.name() + ".parquet"), t, rows, (ImportParquet.Style) c[1]);
        ImportResult result =
            catalog.table(t.name()).importHistory(ImportSource.of(file), NOW, options);
        assertThat(result)
            .as(t.name())
            .usingRecursiveComparison()
            .ignoringFields("table")
            .isEqualTo(expected);
        assertSameRows(ImportCsv.sorted(d.cold.createTable(t).read()), stored);
        assertThat(d.hot.partitions().floor(t)).isEqualTo(d.hot.partitions().floor(csv));
      }
    }
  }

  @Test
  void theColdTiersOwnDataFilesReimportIntoAnotherTableRowForRow() throws IOException {
    TableDefinition archived = table("archived");
    TableDefinition copy = table("reimported");
    try (MeterCatalog catalog = d.catalog(List.of(archived, copy), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Reading> readings = new ArrayList<>();
      for (Object[] row : rows(archived)) {
        readings.add(readingOf(row));
      }
      Instant writtenAt = FIRST_DAY.plus(Duration.ofDays(DAYS));
      catalog.table(archived.name()).append(readings, writtenAt);
      Instant end = FIRST_DAY.plus(Duration.ofDays(DAYS));
      assertThat(catalog.archive(end.plus(LAG), 10_000).healthy()).isTrue();
      assertThat(catalog.table(archived.name()).watermark()).isAfterOrEqualTo(end);
      List<Object[]> expected = ImportCsv.sorted(d.cold.createTable(archived).read());
      assertThat(expected).hasSize(readings.size());

      List<Path> dataFiles = dataFiles(archived);
      assertThat(dataFiles).isNotEmpty();
      long inserted = 0;
      for (Path file : dataFiles) {
        ImportResult r =
            catalog
                .table(copy.name())
                .importHistory(
                    ImportSource.parquet(file), NOW, ImportOptions.DEFAULTS.withChunkRows(1000));
        assertThat(r.duplicate()).as(file.toString()).isZero();
        inserted += r.inserted();
      }
      assertThat(inserted).isEqualTo(expected.size());
      assertSameRows(ImportCsv.sorted(d.cold.createTable(copy).read()), expected);
    }
  }

  @Test
  void aBadRecordIsRefusedNamingItsRowBeforeAnythingIsWritten() {
    TableDefinition table = table("bad_row");
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Object[]> rows = rows(table);
      rows.get(250)[0] = "51238696782"; // bad check digit, in a later row group
      Path file =
          ImportParquet.write(files.resolve("bad.parquet"), table, rows, ImportParquet.Style.COLD);
      assertThatThrownBy(
              () -> catalog.table(table.name()).importHistory(ImportSource.of(file), NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageStartingWith("Cannot import " + file + " row 251: ")
          .hasMessageContaining("MaLo");
      assertNothingWritten(table);
    }
  }

  @Test
  void aFloatingPointValueColumnIsRefusedAsInexact() {
    TableDefinition table = table("float_value");
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      Path file =
          ImportParquet.write(
              files.resolve("float.parquet"), table, rows(table), ImportParquet.Style.FLOAT_VALUE);
      assertThatThrownBy(
              () -> catalog.table(table.name()).importHistory(ImportSource.of(file), NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageStartingWith("Cannot import " + file + ": ")
          .hasMessageContaining("column value")
          .hasMessageContaining("DOUBLE")
          .hasMessageContaining("inexact");
      assertNothingWritten(table);
    }
  }

  @Test
  void anUnknownColumnIsRefusedNamingIt() {
    TableDefinition table = table("unknown_column");
    TableDefinition wider = table.withExtraColumns(List.of(ExtraColumn.attribute("tarif")));
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      List<Object[]> rows =
          rows(table).stream()
              .map(r -> Stream.concat(Arrays.stream(r), Stream.of("HT")).toArray())
              .toList();
      Path file =
          ImportParquet.write(
              files.resolve("wider.parquet"), wider, rows, ImportParquet.Style.COLD);
      assertThatThrownBy(
              () -> catalog.table(table.name()).importHistory(ImportSource.of(file), NOW))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining(file.toString())
          .hasMessageContaining("'tarif'")
          .hasMessageContaining("a column of table unknown_column");
      assertNothingWritten(table);
    }
  }

  @Test
  void anotherExtensionIsRefused() {
    assertThatThrownBy(() -> ImportSource.of(files.resolve("2024.json")))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("2024.json")
        .hasMessageContaining("a .csv or .parquet file");
  }

  private static TableDefinition table(String name) {
    return CatalogFixture.table(name, LAG, GRACE);
  }

  private static void assertNothingWritten(TableDefinition table) {
    assertThat(d.cold.createTable(table).snapshots()).isEmpty();
    assertThat(d.hot.partitions().floor(table)).isEqualTo(Instant.EPOCH);
  }

  private static void assertSameRows(List<Object[]> actual, List<Object[]> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).containsExactly(expected.get(i));
    }
  }

  /**
   * {@value #METERS} meters' quarter-hours of {@value #DAYS} UTC days as stored rows: every third
   * meter with an operator version and a MeLo, the others with the arrival version of a {@code
   * recorded_at} with milliseconds; values with up to six decimals.
   */
  static List<Object[]> rows(TableDefinition table) {
    List<Object[]> rows = new ArrayList<>();
    Instant at = Instant.parse("2026-03-15T06:30:00.123Z");
    Instant end = FIRST_DAY.plus(Duration.ofDays(DAYS));
    for (int meter = 1; meter <= METERS; meter++) {
      int i = 0;
      for (Instant t = FIRST_DAY; t.isBefore(end); t = t.plus(Duration.ofMinutes(15))) {
        ReadingBuilder b =
            Reading.builder()
                .malo(Workload.malo(meter))
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(t, t.plus(Duration.ofMinutes(15)))
                .value(meter + "." + String.format("%06d", (i++ * 7919) % 1_000_000))
                .operator(Workload.OPERATOR);
        if (meter % 3 == 0) {
          b.version("20260315063000" + meter);
        }
        rows.add(StoredRow.of(table, StoredReading.accept(b.build(), at)));
      }
    }
    return rows;
  }

  /** The reading of a row of {@link #rows} (the version scope and values as stored). */
  private static Reading readingOf(Object[] row) {
    ReadingBuilder b =
        Reading.builder()
            .malo((String) row[0])
            .obis((String) row[2])
            .commodity(Commodity.parse((String) row[3]))
            .interval((Instant) row[4], (Instant) row[5])
            .value((java.math.BigDecimal) row[6])
            .operator(Workload.OPERATOR);
    String version = ((java.math.BigDecimal) row[10]).toPlainString();
    if (version.length() >= 14) {
      b.version(version);
    }
    return b.build();
  }

  private static List<Path> dataFiles(TableDefinition table) throws IOException {
    try (Stream<Path> all = Files.walk(warehouse)) {
      return all.filter(p -> p.toString().contains("/" + table.name() + "/"))
          .filter(p -> p.toString().endsWith(".parquet"))
          .sorted()
          .toList();
    }
  }
}
