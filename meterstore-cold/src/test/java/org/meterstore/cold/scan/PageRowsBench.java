package org.meterstore.cold.scan;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.LocalTables;
import org.meterstore.cold.internal.layout.TableLayout;
import org.meterstore.cold.internal.write.SortedChunkWriter;

/**
 * A throwaway measurement, not a test (no assertion; run by hand with {@code -Dtest=PageRowsBench
 * -Dbench.locations=300 -Dbench.chunkRows=100000}): a month of quarter-hours of {@code
 * bench.locations} locations written by MeterStore's writer (pages by {@code TableLayout.pageRows})
 * and, file by file, with Parquet's default 20,000-row pages; then a full read of three columns and
 * one location's month of each, timed (best of {@code bench.repeat}), with the files' bytes by
 * column. Prints to stdout. ADR 0022 records its numbers.
 */
class PageRowsBench {
  @TempDir Path dir;

  @Test
  void measure() throws java.io.IOException {
    int locations = Integer.getInteger("bench.locations", 300);
    int chunk = Integer.getInteger("bench.chunkRows", 1_000_000);
    TableDefinition def = TableDefinition.interval("bench");
    Table table = LocalTables.create(dir.resolve("t"), def, 128L << 20);
    List<DataFile> after =
        new SortedChunkWriter(table, def, chunk, 512L << 20)
            .write(rows(locations), r -> {})
            .files();
    List<DataFile> before = before(table, def, after, locations);
    String malo = String.format("5%010d", locations / 2);
    for (int round = 0; round < 2; round++) {
      for (List<DataFile> files : List.of(before, after)) {
        String label = files == before ? "20,000-row pages" : "pages by TableLayout.pageRows";
        long bytes = files.stream().mapToLong(DataFile::fileSizeInBytes).sum();
        long rows = files.stream().mapToLong(DataFile::recordCount).sum();
        System.out.printf("%s: %d files, %d rows, %d bytes%n", label, files.size(), rows, bytes);
        if (round == 0) {
          breakdown(files);
        }
        time("full", table, files, Expressions.alwaysTrue(), List.of("malo_id", "from", "value"));
        time(
            "point",
            table,
            files,
            Expressions.equal("malo_id", malo),
            List.of("malo_id", "from", "value"));
      }
    }
  }

  /** The same rows, file by file as {@code after} split them, with Parquet's default page rows. */
  private static List<DataFile> before(
      Table table, TableDefinition def, List<DataFile> after, int locations)
      throws java.io.IOException {
    org.meterstore.cold.internal.layout.RowConverter converter =
        new org.meterstore.cold.internal.layout.RowConverter(def, table.schema());
    List<DataFile> out = new ArrayList<>();
    Iterator<Object[]> rows = rows(locations);
    for (DataFile f : after) {
      org.apache.iceberg.io.OutputFile file =
          table.io().newOutputFile(f.location() + ".before.parquet");
      org.apache.iceberg.parquet.Parquet.DataWriteBuilder b =
          org.apache.iceberg.parquet.Parquet.writeData(file).forTable(table);
      TableLayout.encodingProperties().forEach(b::set);
      b.set(org.apache.iceberg.TableProperties.PARQUET_PAGE_ROW_LIMIT, "20000");
      org.apache.iceberg.io.DataWriter<org.apache.iceberg.data.Record> w =
          b.createWriterFunc(org.apache.iceberg.data.parquet.GenericParquetWriter::create)
              .withSpec(table.spec())
              .withPartition(null)
              .withSortOrder(table.sortOrder())
              .overwrite()
              .build();
      try {
        for (long i = 0; i < f.recordCount(); i++) {
          w.write(converter.toRecord(rows.next()));
        }
      } finally {
        w.close();
      }
      out.add(w.toDataFile());
    }
    return out;
  }

  private static void time(
      String label, Table table, List<DataFile> files, Expression filter, List<String> columns) {
    long best = Long.MAX_VALUE;
    long returned = 0;
    long decoded = 0;
    FooterCache cache = new FooterCache(FooterCache.DEFAULT_MAX_BYTES);
    for (int i = 0; i < Integer.getInteger("bench.repeat", 10); i++) {
      long t = System.nanoTime();
      returned = 0;
      decoded = 0;
      for (DataFile f : files) {
        try (ColumnBatchReader r =
            ColumnBatchReader.open(
                table.io().newInputFile(f.location(), f.fileSizeInBytes()),
                table.schema(),
                columns,
                filter,
                0,
                f.fileSizeInBytes(),
                4096,
                cache)) {
          while (r.next() != null) {}
          returned += r.rowsReturned();
          decoded += r.rowsDecoded();
        }
      }
      best = Math.min(best, System.nanoTime() - t);
    }
    System.out.printf(
        "  %s: %d returned, %d decoded, best %.2f ms%n", label, returned, decoded, best / 1e6);
  }

  private static void breakdown(List<DataFile> files) {
    java.util.Map<String, long[]> byColumn = new java.util.TreeMap<>();
    for (DataFile f : files) {
      try (org.apache.parquet.hadoop.ParquetFileReader r =
          org.apache.parquet.hadoop.ParquetFileReader.open(
              new org.apache.parquet.io.LocalInputFile(
                  Path.of(f.location().replaceFirst("^file:", ""))))) {
        for (var b : r.getRowGroups()) {
          for (var c : b.getColumns()) {
            long[] v = byColumn.computeIfAbsent(c.getPath().toDotString(), k -> new long[4]);
            v[0] += c.getTotalSize();
            v[1] +=
                c.getColumnIndexReference() == null ? 0 : c.getColumnIndexReference().getLength();
            v[2] +=
                c.getOffsetIndexReference() == null ? 0 : c.getOffsetIndexReference().getLength();
            var oi = r.readOffsetIndex(c);
            v[3] += oi == null ? 0 : oi.getPageCount();
          }
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    long[] t = new long[4];
    byColumn.forEach(
        (k, v) -> {
          System.out.printf(
              "    %-14s chunks %8d  column index %7d  offset index %7d  pages %6d%n",
              k, v[0], v[1], v[2], v[3]);
          for (int i = 0; i < 4; i++) t[i] += v[i];
        });
    System.out.printf(
        "    %-14s chunks %8d  column index %7d  offset index %7d  pages %6d%n",
        "total", t[0], t[1], t[2], t[3]);
  }

  private static Iterator<Object[]> rows(int locations) {
    Instant day = Instant.parse("2026-01-01T00:00:00Z");
    List<Object[]> rows = new ArrayList<>();
    for (int m = 0; m < locations; m++) {
      for (int q = 0; q < 96 * 31; q++) {
        Instant from = day.plus(Duration.ofMinutes(15L * q));
        rows.add(
            new Object[] {
              String.format("5%010d", m),
              null,
              "1-0:1.8.0",
              "STROM",
              from,
              from.plus(Duration.ofMinutes(15)),
              new BigDecimal((m % 7) + "." + (q % 1000)),
              "KWH",
              "MEASURED",
              "PT15M",
              new BigDecimal("20260201000000"),
              "DEFAULT",
              day.plus(Duration.ofDays(40)),
              LocalDate.of(2026, 1, 1).plusDays(q / 96),
              null,
              null
            });
      }
    }
    return rows.iterator();
  }
}
