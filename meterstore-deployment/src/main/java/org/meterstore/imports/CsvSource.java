package org.meterstore.imports;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;

/** A CSV file as an import source: header row of column names, one reading per record. */
final class CsvSource implements ImportSource {
  private final Path file;

  /** The source of {@code file}. */
  CsvSource(Path file) {
    this.file = java.util.Objects.requireNonNull(file, "file");
  }

  @Override
  public String name() {
    return file.toString();
  }

  @Override
  public ImportCursor open(TableDefinition table, Instant now) {
    CsvRecords records;
    try {
      records =
          new CsvRecords(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot import " + file + ": cannot open it (" + e + ")", e);
    }
    try {
      String[] header = records.next();
      if (header == null) {
        throw MeterStoreException.invalid("import file", file, "a header row of column names");
      }
      return new Cursor(records, new ReadingMapper(table, header, now, name()));
    } catch (IOException e) {
      closeQuietly(records);
      throw new MeterStoreException(ErrorKind.STORAGE, "Cannot import " + file + ": " + e, e);
    } catch (RuntimeException e) {
      closeQuietly(records);
      throw e;
    }
  }

  private static void closeQuietly(CsvRecords records) {
    try {
      records.close();
    } catch (IOException ignored) {
      // nothing was read that could be lost
    }
  }

  private final class Cursor implements ImportCursor {
    private final CsvRecords records;
    private final ReadingMapper mapper;

    Cursor(CsvRecords records, ReadingMapper mapper) {
      this.records = records;
      this.mapper = mapper;
    }

    @Override
    public StoredReading next() {
      String[] fields;
      try {
        do {
          fields = records.next();
        } while (fields != null && fields.length == 1 && fields[0] == null); // blank lines
      } catch (IOException e) {
        throw new MeterStoreException(
            ErrorKind.INVALID_INPUT, "Cannot import " + file + ": " + e.getMessage(), e);
      }
      if (fields == null) {
        return null;
      }
      try {
        return mapper.map(fields);
      } catch (MeterStoreException e) {
        throw new MeterStoreException(
            e.kind(),
            e.isRetryable(),
            "Cannot import " + file + " line " + records.recordLine() + ": " + e.getMessage(),
            e);
      }
    }

    @Override
    public long position() {
      return records.recordLine();
    }

    @Override
    public void close() {
      closeQuietly(records);
    }
  }
}
