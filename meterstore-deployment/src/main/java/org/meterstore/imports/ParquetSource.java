package org.meterstore.imports;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * A Parquet file as an import source: its top-level columns named as the storage model's, one
 * reading per row, read one row group at a time ({@link ParquetRows}). The column types accepted
 * are {@link ParquetFields}'; the header rules and every reading rule are {@link ReadingMapper}'s,
 * the same as for CSV.
 */
final class ParquetSource implements ImportSource {
  private final Path file;

  /** The source of {@code file}. */
  ParquetSource(Path file) {
    this.file = Objects.requireNonNull(file, "file");
  }

  @Override
  public String name() {
    return file.toString();
  }

  @Override
  public ImportCursor open(TableDefinition table, Instant now) {
    ParquetFileReader reader = openReader();
    try {
      MessageType schema = reader.getFileMetaData().getSchema();
      List<Type> fields = schema.getFields();
      String[] header = fields.stream().map(Type::getName).toArray(String[]::new);
      ReadingMapper mapper = new ReadingMapper(table, header, now, name());
      Map<String, ColumnType> types =
          table.columns().stream()
              .collect(Collectors.toMap(ColumnSpec::name, ColumnSpec::type, (a, b) -> a));
      ColumnType[] targets = new ColumnType[fields.size()];
      for (int i = 0; i < fields.size(); i++) {
        Type f = fields.get(i);
        if (!f.isPrimitive() || f.isRepetition(Type.Repetition.REPEATED)) {
          throw MeterStoreException.invalid(
              "column of " + name(), f.getName(), "a flat column (no group, list or map)");
        }
        targets[i] = types.get(f.getName());
      }
      return new Cursor(new ParquetRows(reader, targets), mapper);
    } catch (MeterStoreException e) {
      closeQuietly(reader);
      throw wrapped(e, "");
    } catch (RuntimeException e) {
      closeQuietly(reader);
      throw unreadable("", e);
    }
  }

  private ParquetFileReader openReader() {
    ParquetReadOptions options =
        // a plain configuration: a Hadoop one parses core-default.xml for every file opened
        new ParquetReadOptions.Builder(new PlainParquetConfiguration()).build();
    try {
      return ParquetFileReader.open(new LocalInputFile(file), options);
    } catch (FileSystemException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot import " + file + ": cannot open it (" + e + ")", e);
    } catch (IOException | RuntimeException e) {
      throw unreadable("", e);
    }
  }

  private MeterStoreException unreadable(String where, Exception e) {
    return new MeterStoreException(
        ErrorKind.INVALID_INPUT,
        "Cannot import " + file + where + ": not a readable Parquet file (" + e + ")",
        e);
  }

  private MeterStoreException wrapped(MeterStoreException e, String where) {
    if (e.getMessage().startsWith("Cannot import ")
        || (where.isEmpty() && e.getMessage().contains(name()))) {
      return e;
    }
    return new MeterStoreException(
        e.kind(), e.isRetryable(), "Cannot import " + file + where + ": " + e.getMessage(), e);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // nothing was read that could be lost
    }
  }

  private final class Cursor implements ImportCursor {
    private final ParquetRows rows;
    private final ReadingMapper mapper;

    Cursor(ParquetRows rows, ReadingMapper mapper) {
      this.rows = rows;
      this.mapper = mapper;
    }

    @Override
    public StoredReading next() {
      Object[] fields;
      try {
        fields = rows.next();
      } catch (IOException | RuntimeException e) {
        throw unreadable(" row " + (rows.row() + 1), e);
      }
      if (fields == null) {
        return null;
      }
      try {
        return mapper.map(fields);
      } catch (MeterStoreException e) {
        throw wrapped(e, " row " + rows.row());
      }
    }

    @Override
    public long position() {
      return rows.row();
    }

    @Override
    public void close() {
      closeQuietly(rows);
    }
  }
}
