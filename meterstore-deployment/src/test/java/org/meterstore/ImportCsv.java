package org.meterstore;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;

/** Writes rows in the api's row format as an import CSV: header of column names, RFC 4180. */
final class ImportCsv {
  private ImportCsv() {}

  static Path write(Path file, TableDefinition table, Iterable<Object[]> rows) {
    List<ColumnSpec> columns = table.columns();
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(String.join(",", columns.stream().map(ColumnSpec::name).toList()));
      out.write('\n');
      for (Object[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          if (i > 0) {
            out.write(',');
          }
          out.write(text(row[i]));
        }
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** Every row of {@code rows} (closed afterwards), in a fixed order: to compare row for row. */
  static List<Object[]> sorted(org.apache.iceberg.io.CloseableIterable<Object[]> rows) {
    List<Object[]> all = new java.util.ArrayList<>();
    try (rows) {
      rows.forEach(all::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return sorted(all);
  }

  /** {@code rows} in the same fixed order as {@link #sorted(CloseableIterable)}, copied. */
  static List<Object[]> sorted(List<Object[]> rows) {
    List<Object[]> all = new java.util.ArrayList<>(rows);
    all.sort(java.util.Comparator.comparing((Object[] r) -> java.util.Arrays.toString(r)));
    return all;
  }

  /** An electricity quarter-hour of meter {@code meter} (workload ids) from {@code from}. */
  static org.meterstore.api.reading.Reading quarterHour(
      int meter, java.time.Instant from, String value) {
    return org.meterstore.api.reading.Reading.builder()
        .malo(org.meterstore.testing.workload.Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(org.meterstore.api.commodity.Commodity.STROM)
        .interval(from, from.plus(java.time.Duration.ofMinutes(15)))
        .value(value)
        .operator(org.meterstore.testing.workload.Workload.OPERATOR)
        .build();
  }

  private static String text(Object value) {
    if (value == null) {
      return "";
    }
    String s = value instanceof BigDecimal d ? d.toPlainString() : value.toString();
    if (s.isEmpty() || s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
