package org.meterstore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;

/**
 * Writes rows in the api's row format as an import Parquet file, with parquet-mr's example writer
 * (no Iceberg field ids, as DuckDB or Spark write them), in small row groups so that a file of a
 * few hundred rows already spans several.
 */
final class ImportParquet {
  /** Days from the Julian day 0 to 1970-01-01. */
  private static final long JULIAN_EPOCH_DAY = 2_440_588;

  /** How the columns are typed. */
  enum Style {
    /** The cold tier's types: timestamptz micros, decimal(18,6) on INT64, (20,0) on FIXED(9). */
    COLD,
    /** Spark's plain export: INT96 timestamps, decimals on BINARY. */
    SPARK,
    /** Every column a string, parsed as CSV is. */
    TEXT,
    /** The cold types, but {@code value} a DOUBLE. */
    FLOAT_VALUE
  }

  private ImportParquet() {}

  static Path write(Path file, TableDefinition table, Iterable<Object[]> rows, Style style) {
    List<ColumnSpec> columns = table.columns();
    Types.MessageTypeBuilder b = Types.buildMessage();
    for (ColumnSpec c : columns) {
      Repetition r = c.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
      b.addField(field(c, style, r));
    }
    MessageType schema = b.named("reading");
    try {
      Files.deleteIfExists(file);
      try (ParquetWriter<Group> out =
          ExampleParquetWriter.builder(new LocalOutputFile(file))
              .withConf(new PlainParquetConfiguration())
              .withType(schema)
              .withCompressionCodec(CompressionCodecName.SNAPPY)
              .withRowGroupSize(16 * 1024L)
              .withPageSize(4 * 1024)
              .build()) {
        for (Object[] row : rows) {
          SimpleGroup g = new SimpleGroup(schema);
          for (int i = 0; i < row.length; i++) {
            if (row[i] != null) {
              add(g, i, columns.get(i), row[i], style);
            }
          }
          out.write(g);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  private static org.apache.parquet.schema.Type field(ColumnSpec c, Style style, Repetition r) {
    if (style == Style.TEXT) {
      return string(c, r);
    }
    return switch (c.type()) {
      case TEXT -> string(c, r);
      case TIMESTAMPTZ ->
          style == Style.SPARK
              ? Types.primitive(PrimitiveTypeName.INT96, r).named(c.name())
              : Types.primitive(PrimitiveTypeName.INT64, r)
                  .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                  .named(c.name());
      case DATE ->
          Types.primitive(PrimitiveTypeName.INT32, r)
              .as(LogicalTypeAnnotation.dateType())
              .named(c.name());
      case DECIMAL_18_6 ->
          style == Style.FLOAT_VALUE
              ? Types.primitive(PrimitiveTypeName.DOUBLE, r).named(c.name())
              : style == Style.SPARK
                  ? Types.primitive(PrimitiveTypeName.BINARY, r)
                      .as(LogicalTypeAnnotation.decimalType(6, 18))
                      .named(c.name())
                  : Types.primitive(PrimitiveTypeName.INT64, r)
                      .as(LogicalTypeAnnotation.decimalType(6, 18))
                      .named(c.name());
      case DECIMAL_20_0 ->
          style == Style.SPARK
              ? Types.primitive(PrimitiveTypeName.BINARY, r)
                  .as(LogicalTypeAnnotation.decimalType(0, 20))
                  .named(c.name())
              : Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, r)
                  .length(9)
                  .as(LogicalTypeAnnotation.decimalType(0, 20))
                  .named(c.name());
    };
  }

  private static org.apache.parquet.schema.Type string(ColumnSpec c, Repetition r) {
    return Types.primitive(PrimitiveTypeName.BINARY, r)
        .as(LogicalTypeAnnotation.stringType())
        .named(c.name());
  }

  private static void add(SimpleGroup g, int i, ColumnSpec c, Object v, Style style) {
    if (style == Style.TEXT) {
      g.add(i, v instanceof BigDecimal d ? d.toPlainString() : v.toString());
      return;
    }
    switch (c.type()) {
      case TEXT -> g.add(i, (String) v);
      case TIMESTAMPTZ -> {
        Instant t = (Instant) v;
        if (style == Style.SPARK) {
          long day = Math.floorDiv(t.getEpochSecond(), 86_400);
          long nanos = (t.getEpochSecond() - day * 86_400) * 1_000_000_000L + t.getNano();
          ByteBuffer b = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
          b.putLong(nanos).putInt((int) (day + JULIAN_EPOCH_DAY));
          g.add(i, org.apache.parquet.io.api.Binary.fromConstantByteArray(b.array()));
        } else {
          g.add(i, ChronoUnit.MICROS.between(Instant.EPOCH, t));
        }
      }
      case DATE -> g.add(i, (int) ((LocalDate) v).toEpochDay());
      case DECIMAL_18_6 -> {
        BigDecimal d = ((BigDecimal) v).setScale(6);
        if (style == Style.FLOAT_VALUE) {
          g.add(i, d.doubleValue());
        } else if (style == Style.SPARK) {
          g.add(i, binary(d.unscaledValue(), 0));
        } else {
          g.add(i, d.unscaledValue().longValueExact());
        }
      }
      case DECIMAL_20_0 ->
          g.add(i, binary(((BigDecimal) v).toBigIntegerExact(), style == Style.SPARK ? 0 : 9));
    }
  }

  /** Big-endian two's complement, sign-extended to {@code length} bytes (0: as short as fits). */
  private static org.apache.parquet.io.api.Binary binary(BigInteger unscaled, int length) {
    byte[] minimal = unscaled.toByteArray();
    if (length == 0) {
      return org.apache.parquet.io.api.Binary.fromConstantByteArray(minimal);
    }
    byte[] fixed = new byte[length];
    byte pad = (byte) (unscaled.signum() < 0 ? 0xff : 0);
    java.util.Arrays.fill(fixed, 0, length - minimal.length, pad);
    System.arraycopy(minimal, 0, fixed, length - minimal.length, minimal.length);
    return org.apache.parquet.io.api.Binary.fromConstantByteArray(fixed);
  }
}
