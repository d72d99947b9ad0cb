package org.meterstore.cold.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Files;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.encryption.EncryptedFiles;
import org.apache.iceberg.hadoop.HadoopTables;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.types.Types;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.LocalTables;
import org.meterstore.cold.internal.layout.RowConverter;

class CachingValueWritersTest {
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang")
          .withExtraColumns(
              List.of(ExtraColumn.identity("tenant"), ExtraColumn.attribute("comment")));
  private static final BiFunction<Schema, MessageType, ParquetValueWriter<?>> ICEBERG =
      InternalWriter::createWriter;

  @TempDir Path dir;

  /** Seed, row count, and the percentage of fresh text values that are long random strings. */
  static Stream<int[]> samples() {
    return Stream.of(new int[] {1, 3_000, 0}, new int[] {2, 20_000, 5}, new int[] {3, 30_000, 60});
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("samples")
  void writesTheSameFileAsIcebergsInternalWriter(int[] sample) throws IOException {
    Table table = table();
    Schema schema = table.schema();
    List<Object[]> rows = RowSamples.rows(TABLE, new Random(sample[0]), sample[1], sample[2]);
    assertThat(CachingValueWriters.handles(schema, ParquetSchemaUtil.convert(schema, "t")))
        .as("the cold layout is written by our writers, not the fallback")
        .isTrue();

    RowConverter converter = new RowConverter(TABLE, schema);
    Path ours = dir.resolve("ours.parquet");
    DataWriter<StructLike> writer =
        new InternalParquetWriterFactory(table)
            .newDataWriter(
                EncryptedFiles.plainAsEncryptedOutput(Files.localOutput(ours.toFile())),
                table.spec(),
                null);
    DataFile oursFile = write(writer, rows, converter);
    converter = new RowConverter(TABLE, schema);
    Path theirs = dir.resolve("theirs.parquet");
    DataFile theirsFile = write(icebergWriter(table, theirs, ICEBERG), rows, converter);

    List<Record> read = read(ours, schema);
    List<Record> reference = read(theirs, schema);
    assertThat(read).hasSameSizeAs(rows).hasSameSizeAs(reference);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(read.get(i)).as("row %s", i).isEqualTo(reference.get(i));
    }
    RowConverter back = new RowConverter(TABLE, schema);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(back.toRow(read.get(i))).as("row %s", i).containsExactly(expected(rows.get(i)));
    }
    assertThat(oursFile.recordCount()).isEqualTo(rows.size());
    assertThat(oursFile.valueCounts()).isEqualTo(theirsFile.valueCounts());
    assertThat(oursFile.nullValueCounts()).isEqualTo(theirsFile.nullValueCounts());
    assertThat(oursFile.lowerBounds()).isEqualTo(theirsFile.lowerBounds());
    assertThat(oursFile.upperBounds()).isEqualTo(theirsFile.upperBounds());
    assertThat(oursFile.columnSizes()).isEqualTo(theirsFile.columnSizes());
    List<String> footer = footer(ours);
    assertThat(footer).isEqualTo(footer(theirs));
    if (sample[2] >= 50) {
      assertThat(footer)
          .as("a string column's dictionary overflowed to plain encoding")
          .anyMatch(c -> !c.startsWith("[version]") && c.matches(".*[\\[ ]PLAIN[,\\]].*"));
    }
    assertThat(java.nio.file.Files.readAllBytes(ours))
        .as("byte-identical Parquet files")
        .isEqualTo(java.nio.file.Files.readAllBytes(theirs));
  }

  /**
   * Iceberg's own writer asks the context class loader for Hadoop's default configuration files for
   * every file; the factory's writer does not (the test above proves its files are the same bytes),
   * and leaves the caller's context class loader in place.
   */
  @Test
  void writesAFileWithoutReadingHadoopsDefaultConfiguration() throws IOException {
    Table table = table();
    List<Object[]> rows = RowSamples.rows(TABLE, new Random(4), 100, 0);
    Thread thread = Thread.currentThread();
    ClassLoader original = thread.getContextClassLoader();
    List<String> asked = new ArrayList<>();
    ClassLoader counting =
        new ClassLoader(original) {
          @Override
          public java.net.URL getResource(String name) {
            asked.add(name);
            return super.getResource(name);
          }
        };
    thread.setContextClassLoader(counting);
    try {
      write(
          icebergWriter(table, dir.resolve("iceberg.parquet"), ICEBERG),
          rows,
          new RowConverter(TABLE, table.schema()));
      assertThat(asked).as("Iceberg's writer").contains("core-default.xml");
      asked.clear();
      write(
          new InternalParquetWriterFactory(table)
              .newDataWriter(
                  EncryptedFiles.plainAsEncryptedOutput(
                      Files.localOutput(dir.resolve("ours.parquet").toFile())),
                  table.spec(),
                  null),
          rows,
          new RowConverter(TABLE, table.schema()));
      assertThat(asked)
          .as("the factory's writer asks for no Hadoop default or site file")
          .noneMatch(name -> name.matches("[^/]*-(default|site)\\.xml"));
      assertThat(thread.getContextClassLoader()).isSameAs(counting);
    } finally {
      thread.setContextClassLoader(original);
    }
    assertThat(read(dir.resolve("ours.parquet"), table.schema())).hasSize(rows.size());
  }

  @Test
  void refusesADecimalOfTheWrongScaleAsIcebergDoes() throws IOException {
    Schema schema = table().schema();
    int value = schema.columns().indexOf(schema.findField("value"));
    int version = schema.columns().indexOf(schema.findField("version"));
    for (BiFunction<Schema, MessageType, ParquetValueWriter<?>> function :
        List.<BiFunction<Schema, MessageType, ParquetValueWriter<?>>>of(
            ICEBERG, CachingValueWriters::create)) {
      Record good = record(schema);
      assertThatThrownBy(() -> writeOne(function, schema, good, value, new BigDecimal("1.50")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("wrong scale");
      assertThatThrownBy(() -> writeOne(function, schema, good, version, new BigDecimal("1.0")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("wrong scale");
      assertThatThrownBy(
              () -> writeOne(function, schema, good, version, new BigDecimal("1" + "0".repeat(20))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("too large");
      assertThatThrownBy(
              () -> writeOne(function, schema, good, value, new BigDecimal("1000000000000.000000")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("too large");
    }
  }

  @Test
  void aMutableCharSequenceIsEncodedAgainEvenWhenItIsTheSameObject() throws IOException {
    Schema schema = table().schema();
    int comment = schema.columns().indexOf(schema.findField("comment"));
    StringBuilder text = new StringBuilder("eins");
    Path file = dir.resolve("mutable.parquet");
    try (DataWriter<StructLike> writer =
        icebergWriter(table(), file, CachingValueWriters::create)) {
      for (String s : List.of("eins", "zwei", "drei")) {
        text.setLength(0);
        text.append(s);
        Record r = record(schema);
        r.set(comment, text);
        writer.write(r);
      }
    }
    assertThat(read(file, schema))
        .extracting(r -> r.get(comment))
        .containsExactly("eins", "zwei", "drei");
  }

  @Test
  void aSchemaItDoesNotKnowIsWrittenByIcebergsWriter() throws IOException {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "flag", Types.BooleanType.get()),
            Types.NestedField.optional(
                3,
                "point",
                Types.StructType.of(Types.NestedField.required(4, "x", Types.DoubleType.get()))));
    assertThat(CachingValueWriters.handles(schema, ParquetSchemaUtil.convert(schema, "t")))
        .isFalse();
    Path file = dir.resolve("fallback.parquet");
    Table table =
        new HadoopTables(new org.apache.hadoop.conf.Configuration())
            .create(schema, PartitionSpec.unpartitioned(), dir.resolve("other").toString());
    GenericRecord point = GenericRecord.create(schema.findField("point").type().asStructType());
    point.set(0, 2.5);
    GenericRecord row = GenericRecord.create(schema);
    row.set(0, 7L);
    row.set(1, true);
    row.set(2, point);
    try (DataWriter<StructLike> writer = icebergWriter(table, file, CachingValueWriters::create)) {
      writer.write(row);
    }
    assertThat(read(file, schema)).containsExactly(row);
  }

  private Table table() {
    Path location = dir.resolve("table");
    if (java.nio.file.Files.exists(location)) {
      return new HadoopTables(new org.apache.hadoop.conf.Configuration()).load(location.toString());
    }
    return LocalTables.create(location, TABLE, 128L << 20);
  }

  /** A data file writer of {@code table} at {@code file} with the writer function given. */
  static DataWriter<StructLike> icebergWriter(
      Table table, Path file, BiFunction<Schema, MessageType, ParquetValueWriter<?>> function)
      throws IOException {
    return Parquet.writeData(Files.localOutput(file.toFile()))
        .forTable(table)
        .createWriterFunc(function)
        .withSpec(table.spec())
        .withPartition(null)
        .withSortOrder(table.sortOrder())
        .overwrite()
        .build();
  }

  private static DataFile write(
      DataWriter<StructLike> writer, List<Object[]> rows, RowConverter converter)
      throws IOException {
    try (writer) {
      for (Object[] row : rows) {
        writer.write(converter.toInternal(row));
      }
    }
    return writer.toDataFile();
  }

  /** Writes {@code good}, then {@code good} with {@code bad} at {@code position}. */
  private void writeOne(
      BiFunction<Schema, MessageType, ParquetValueWriter<?>> function,
      Schema schema,
      Record good,
      int position,
      BigDecimal bad)
      throws IOException {
    Path file = java.nio.file.Files.createTempFile(dir, "refused", ".parquet");
    try (DataWriter<StructLike> writer = icebergWriter(table(), file, function)) {
      writer.write(good);
      Record wrong = good.copy();
      wrong.set(position, bad);
      writer.write(wrong);
    }
  }

  /** A valid row in Iceberg's internal representation. */
  private static Record record(Schema schema) {
    RowConverter converter = new RowConverter(TABLE, schema);
    Object[] row = RowSamples.rows(TABLE, new Random(9), 1, 0).get(0);
    StructLike internal = converter.toInternal(row);
    GenericRecord record = GenericRecord.create(schema);
    for (int i = 0; i < schema.columns().size(); i++) {
      record.set(i, internal.get(i, Object.class));
    }
    return record;
  }

  private static List<Record> read(Path file, Schema schema) throws IOException {
    try (CloseableIterable<Record> records =
        Parquet.read(Files.localInput(file.toFile()))
            .project(schema)
            .createReaderFunc(s -> GenericParquetReaders.buildReader(schema, s))
            .build()) {
      List<Record> out = new ArrayList<>();
      records.forEach(out::add);
      return out;
    }
  }

  /** Per row group and column: path, encodings, statistics, value count and sizes. */
  private static List<String> footer(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file))) {
      for (BlockMetaData block : reader.getFooter().getBlocks()) {
        for (ColumnChunkMetaData c : block.getColumns()) {
          out.add(
              c.getPath()
                  + " "
                  + c.getEncodings()
                  + " "
                  + c.getStatistics()
                  + " "
                  + c.getValueCount()
                  + " "
                  + c.getTotalSize()
                  + " "
                  + c.getTotalUncompressedSize());
        }
      }
    }
    return out;
  }

  /**
   * What a row reads back as: instants at microsecond precision, decimals at the column's scale.
   */
  private static Object[] expected(Object[] row) {
    Object[] out = row.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i] instanceof Instant t) {
        out[i] = Instant.ofEpochSecond(t.getEpochSecond(), t.getNano() / 1000 * 1000L);
      } else if (out[i] instanceof BigDecimal d) {
        out[i] = d.setScale(TABLE.columns().get(i).type() == ColumnType.DECIMAL_18_6 ? 6 : 0);
      }
    }
    return out;
  }
}
