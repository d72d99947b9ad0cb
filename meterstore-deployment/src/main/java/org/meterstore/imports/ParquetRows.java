package org.meterstore.imports;

import java.io.IOException;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.meterstore.api.table.ColumnType;

/**
 * The rows of a Parquet file, one row group in memory at a time: each row an {@code Object[]} of
 * the top-level columns in file order, null where a value is missing, filled by the converters
 * {@link ParquetFields} chose. Not thread-safe.
 */
final class ParquetRows implements AutoCloseable, ParquetFields.Row {
  private final ParquetFileReader reader;
  private final MessageColumnIO columns;
  private final Materializer materializer;
  private RecordReader<Object[]> group;
  private long leftInGroup;
  private long row;
  private Object[] current;

  /**
   * Reads {@code reader}'s file, whose top-level columns are flat and stored as {@code targets}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} for a column whose type
   *     its target does not accept
   */
  ParquetRows(ParquetFileReader reader, ColumnType[] targets) {
    this.reader = reader;
    MessageType schema = reader.getFileMetaData().getSchema();
    this.columns = new ColumnIOFactory().getColumnIO(schema);
    PrimitiveConverter[] converters = new PrimitiveConverter[targets.length];
    for (int i = 0; i < targets.length; i++) {
      converters[i] =
          ParquetFields.converter(schema.getType(i).asPrimitiveType(), targets[i], this, i);
    }
    this.materializer = new Materializer(converters);
  }

  /** The number (1-based) of the row {@link #next} returned last. */
  long row() {
    return row;
  }

  /** The next row, or null at the end. */
  Object[] next() throws IOException {
    while (leftInGroup == 0) {
      PageReadStore pages = reader.readNextRowGroup();
      if (pages == null) {
        return null;
      }
      leftInGroup = pages.getRowCount();
      group = columns.getRecordReader(pages, materializer);
    }
    leftInGroup--;
    row++;
    current = new Object[materializer.width()];
    group.read();
    return current;
  }

  @Override
  public void set(int slot, Object value) {
    current[slot] = value;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }

  /** Assembles a flat record: the converters write into {@link #current} directly. */
  private final class Materializer extends RecordMaterializer<Object[]> {
    private final GroupConverter root;
    private final int width;

    Materializer(PrimitiveConverter[] fields) {
      this.width = fields.length;
      this.root =
          new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
              return fields[fieldIndex];
            }

            @Override
            public void start() {}

            @Override
            public void end() {}
          };
    }

    int width() {
      return width;
    }

    @Override
    public Object[] getCurrentRecord() {
      return current;
    }

    @Override
    public GroupConverter getRootConverter() {
      return root;
    }
  }
}
