package org.meterstore.cold.scan;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.expressions.Expression;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.LocalTables;
import org.meterstore.cold.internal.write.SortedChunkWriter;

/**
 * One real data file of a month of hourly readings of {@link #LOCATIONS} locations, written by
 * MeterStore's writer ({@link SortedChunkWriter}, the table layout's properties) into a file-system
 * Iceberg table without a catalog, and read back through {@link ColumnBatchReader} as value lists.
 *
 * <p>The rows exercise every decoder: nullable text and timestamps (null in some rows), text that
 * is dictionary-encoded and text whose dictionary overflows into plain pages ({@code provenance},
 * one long string per row, with a 16 KiB dictionary limit), decimals stored as {@code INT64} and as
 * nine bytes (some beyond a long), dates, and a second channel at some locations. A 4 KiB page size
 * makes the long-text column's pages end at other rows than the others'.
 */
final class LocationsFile {
  static final int LOCATIONS = 300;
  static final int HOURS = 31 * 24;
  static final Instant MONTH = Instant.parse("2026-01-01T00:00:00Z");
  static final TableDefinition TABLE = TableDefinition.interval("page_skipping");

  final Table table;
  final DataFile file;
  final List<String> columns;

  LocationsFile(Path dir) {
    table =
        LocalTables.create(
            dir.resolve("table"),
            TABLE,
            128L << 20,
            Map.of(
                TableProperties.PARQUET_PAGE_SIZE_BYTES, "4096",
                TableProperties.PARQUET_DICT_SIZE_BYTES, "16384"));
    List<DataFile> files =
        new SortedChunkWriter(table, TABLE, 1_000_000, 512L << 20)
            .write(rows().iterator(), row -> {})
            .files();
    if (files.size() != 1) {
      throw new IllegalStateException("expected one file, got " + files.size());
    }
    file = files.get(0);
    columns = TABLE.columns().stream().map(ColumnSpec::name).toList();
  }

  static String malo(int location) {
    return String.format("5%010d", location * 2 + 1);
  }

  /** The rows, location by location, quarter-hour by quarter-hour. */
  static List<Object[]> rows() {
    List<Object[]> rows = new ArrayList<>();
    for (int m = 0; m < LOCATIONS; m++) {
      for (int q = 0; q < HOURS; q++) {
        rows.add(row(m, q, "1-0:1.8.0"));
        if (m % 5 == 0) {
          rows.add(row(m, q, "1-0:2.8.0"));
        }
      }
    }
    return rows;
  }

  private static Object[] row(int m, int q, String obis) {
    Instant from = MONTH.plus(Duration.ofHours(q));
    String version = m % 7 == 0 ? "99999999999999999999" : "2026011" + (m % 10) + "000000";
    return new Object[] {
      malo(m),
      m % 2 == 0 ? null : "DE000" + m,
      obis,
      "STROM",
      from,
      q % 3 == 0 ? null : from.plus(Duration.ofHours(1)),
      new BigDecimal((m % 13) + "." + String.format("%06d", q * 997 % 1_000_000)),
      "KWH",
      q % 11 == 0 ? "ESTIMATED" : "MEASURED",
      m % 4 == 0 ? null : "PT15M",
      new BigDecimal(version),
      "DEFAULT",
      MONTH.plus(Duration.ofDays(32)).plusSeconds(m),
      LocalDate.of(2026, 1, 1).plusDays(q / 24),
      null,
      m % 2 == 0 ? "import batch " + m + "/" + q + " " + "x".repeat(20 + q % 40) : null
    };
  }

  /** What a read returned: the rows (value lists in column order) and the reader's counts. */
  record Read(List<List<Object>> rows, long decoded, long returned) {}

  Read read(Expression residual, FooterCache cache) {
    try (ColumnBatchReader reader =
        ColumnBatchReader.open(
            table.io().newInputFile(file.location(), file.fileSizeInBytes()),
            table.schema(),
            columns,
            residual,
            0,
            file.fileSizeInBytes(),
            100,
            cache)) {
      List<List<Object>> rows = new ArrayList<>();
      for (ColumnBatch b = reader.next(); b != null; b = reader.next()) {
        for (int r = 0; r < b.size(); r++) {
          List<Object> row = new ArrayList<>();
          for (ColumnVector v : b.columns()) {
            row.add(value(v, r));
          }
          rows.add(row);
        }
      }
      return new Read(rows, reader.rowsDecoded(), reader.rowsReturned());
    }
  }

  private static Object value(ColumnVector v, int r) {
    if (v.isNull(r)) {
      return null;
    }
    if (v instanceof TextVector t) {
      return t.value(r);
    }
    if (v instanceof IntVector i) {
      return i.values()[r];
    }
    LongVector l = (LongVector) v;
    return l.overflow() != null && l.overflow()[r] != null ? l.overflow()[r] : l.values()[r];
  }
}
