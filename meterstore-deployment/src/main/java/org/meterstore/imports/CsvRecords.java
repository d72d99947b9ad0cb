package org.meterstore.imports;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 4180 record reader: comma-separated fields, {@code "} quotes (a quote inside a quoted
 * field doubled), records ended by LF or CRLF, quoted fields may span lines. An empty unquoted
 * field is null (a missing value); {@code ""} is the empty string. Reads through its own buffer,
 * one record at a time.
 */
final class CsvRecords implements AutoCloseable {
  private final Reader in;
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int len;
  private long line = 1;
  private long recordLine;
  private final StringBuilder field = new StringBuilder(64);
  private final List<String> fields = new ArrayList<>(24);
  // the field readPlain found wholly inside the buffer, when nothing went to the builder
  private String plain;

  CsvRecords(Reader in) {
    this.in = in;
  }

  /** The line the last record returned started on (1-based). */
  long recordLine() {
    return recordLine;
  }

  /** The next record's fields, or null at the end of input. */
  String[] next() throws IOException {
    if (!fill()) {
      return null;
    }
    recordLine = line;
    fields.clear();
    while (true) {
      boolean quoted = false;
      field.setLength(0);
      plain = null;
      if (fill() && buf[pos] == '"') {
        quoted = true;
        pos++;
        readQuoted();
      }
      int end = readPlain();
      if (plain != null) {
        fields.add(plain);
      } else {
        fields.add(quoted || field.length() > 0 ? field.toString() : null);
      }
      if (end != ',') {
        return fields.toArray(new String[fields.size()]);
      }
    }
  }

  /** Reads up to a closing quote that is not doubled. */
  private void readQuoted() throws IOException {
    while (true) {
      if (!fill()) {
        throw new IOException("line " + recordLine + ": a quoted field is not closed");
      }
      char c = buf[pos++];
      if (c == '"') {
        if (fill() && buf[pos] == '"') {
          field.append('"');
          pos++;
          continue;
        }
        return;
      }
      if (c == '\n') {
        line++;
      }
      field.append(c);
    }
  }

  /**
   * Reads unquoted characters up to a comma, an end of line or the input's end; returns which. A
   * field that lies wholly in the buffer and follows nothing in the builder becomes {@link #plain}
   * straight from the buffer (the common case: one copy instead of two).
   */
  private int readPlain() throws IOException {
    while (fill()) {
      int start = pos;
      while (pos < len) {
        char c = buf[pos];
        if (c == ',' || c == '\n' || c == '\r') {
          if (pos > start) {
            if (field.length() == 0) {
              plain = new String(buf, start, pos - start);
            } else {
              field.append(buf, start, pos - start);
            }
          }
          pos++;
          if (c == '\r') {
            if (fill() && buf[pos] == '\n') {
              pos++;
            }
            line++;
            return '\n';
          }
          if (c == '\n') {
            line++;
          }
          return c;
        }
        pos++;
      }
      field.append(buf, start, pos - start);
    }
    return -1;
  }

  private boolean fill() throws IOException {
    if (pos < len) {
      return true;
    }
    len = in.read(buf, 0, buf.length);
    pos = 0;
    if (len <= 0) {
      len = 0;
      return false;
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
