package org.meterstore.imports;

import java.io.IOException;
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
      records = new CsvRecords(Files.newInputStream(file));
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

  /** Records read ahead, with the line each starts on. */
  private record Records(String[][] fields, long[] lines, int count) {}

  /**
   * A pass over the records after the header: they are read and split into fields on a thread of
   * its own ({@value #BLOCK} records at a time, at most {@value #BLOCKS} blocks ahead), while the
   * caller's thread maps them to readings. The thread lives as long as the cursor.
   */
  private final class Cursor implements ImportCursor {
    private static final int BLOCK = 1024;
    private static final int BLOCKS = 8;

    private final CsvRecords records;
    private final ReadingMapper mapper;
    private final Handoff<Records> ahead;
    private Records current;
    private int index;
    private long line;

    Cursor(CsvRecords records, ReadingMapper mapper) {
      this.records = records;
      this.mapper = mapper;
      this.ahead = new Handoff<>("meterstore-import-csv " + file.getFileName(), BLOCKS, this::read);
    }

    private void read(Handoff.Sink<Records> sink) throws InterruptedException {
      String[][] fields = new String[BLOCK][];
      long[] lines = new long[BLOCK];
      int n = 0;
      try {
        for (String[] r = records.next(); r != null; r = records.next()) {
          fields[n] = r;
          lines[n] = records.recordLine();
          if (++n == BLOCK) {
            sink.put(new Records(fields, lines, n));
            fields = new String[BLOCK][];
            lines = new long[BLOCK];
            n = 0;
          }
        }
      } catch (IOException e) {
        if (n > 0) {
          sink.put(new Records(fields, lines, n)); // the records before the failure first
        }
        throw new MeterStoreException(
            ErrorKind.INVALID_INPUT, "Cannot import " + file + ": " + e.getMessage(), e);
      }
      if (n > 0) {
        sink.put(new Records(fields, lines, n));
      }
    }

    @Override
    public StoredReading next() {
      String[] fields;
      do {
        fields = nextRecord();
      } while (fields != null && fields.length == 1 && fields[0] == null); // blank lines
      if (fields == null) {
        return null;
      }
      try {
        return mapper.map(fields);
      } catch (MeterStoreException e) {
        throw new MeterStoreException(
            e.kind(),
            e.isRetryable(),
            "Cannot import " + file + " line " + line + ": " + e.getMessage(),
            e);
      }
    }

    private String[] nextRecord() {
      while (current == null || index == current.count()) {
        current = ahead.next();
        index = 0;
        if (current == null) {
          return null;
        }
      }
      line = current.lines()[index];
      return current.fields()[index++];
    }

    @Override
    public long position() {
      return line;
    }

    @Override
    public void close() {
      ahead.close();
      closeQuietly(records);
    }
  }
}
