package org.meterstore.bench;

import java.io.BufferedReader;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;
import org.postgresql.PGConnection;

/**
 * The archival baseline a user would write instead: {@code COPY … TO STDOUT} of one partition, each
 * text line parsed into an Iceberg {@code Record} and appended to one Parquet file with Iceberg's
 * generic Parquet writer (ZSTD) — no sort, no partitioning, no commit, no digest.
 */
final class CopyToParquet {
  private static final DateTimeFormatter PG_TIMESTAMPTZ =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .appendPattern("X")
          .toFormatter();

  private CopyToParquet() {}

  /**
   * Copies {@code qualified} (a quoted partition name of {@code table}) into {@code file}; returns
   * the number of rows. Sets the session's time zone to UTC and its date style to ISO first.
   */
  static long copy(Connection c, String qualified, TableDefinition table, Schema schema, Path file)
      throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("SET DateStyle = 'ISO'");
    }
    String sql = "COPY " + qualified + " (" + CopyText.columnList(table) + ") TO STDOUT";
    PipedWriter sink = new PipedWriter();
    PipedReader source = new PipedReader(sink, 1 << 20);
    AtomicReference<Exception> failure = new AtomicReference<>();
    Thread copier =
        new Thread(
            () -> {
              try (sink) {
                c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, sink);
              } catch (Exception e) {
                failure.set(e);
              }
            },
            "bench-copy-out");
    copier.start();
    long n = append(source, table.columns(), schema, file);
    copier.join();
    if (failure.get() != null) {
      throw failure.get();
    }
    return n;
  }

  private static long append(PipedReader source, List<ColumnSpec> columns, Schema schema, Path file)
      throws Exception {
    long n = 0;
    try (BufferedReader in = new BufferedReader(source, 1 << 20);
        FileAppender<Record> out =
            Parquet.write(org.apache.iceberg.Files.localOutput(file.toFile()))
                .schema(schema)
                .createWriterFunc(GenericParquetWriter::create)
                .set("write.parquet.compression-codec", "zstd")
                .build()) {
      GenericRecord template = GenericRecord.create(schema);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.add(parse(template, columns, line));
        n++;
      }
    }
    return n;
  }

  private static Record parse(GenericRecord template, List<ColumnSpec> columns, String line) {
    GenericRecord r = template.copy();
    String[] fields = line.split("\t", -1);
    for (int i = 0; i < fields.length; i++) {
      String f = fields[i];
      ColumnSpec col = columns.get(i);
      Object value =
          f.equals("\\N")
              ? null
              : switch (col.type()) {
                case TEXT -> f;
                case TIMESTAMPTZ -> OffsetDateTime.parse(f, PG_TIMESTAMPTZ);
                case DATE -> LocalDate.parse(f);
                case DECIMAL_18_6 -> new BigDecimal(f).setScale(6);
                case DECIMAL_20_0 -> new BigDecimal(f);
              };
      r.setField(col.name(), value);
    }
    return r;
  }
}
