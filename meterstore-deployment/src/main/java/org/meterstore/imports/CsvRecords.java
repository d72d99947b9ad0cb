package org.meterstore.imports;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An RFC 4180 record reader over UTF-8 bytes: comma-separated fields, {@code "} quotes (a quote
 * inside a quoted field doubled), records ended by LF, CRLF or CR, quoted fields may span lines. An
 * empty unquoted field is null (a missing value); {@code ""} is the empty string. A byte order mark
 * at the start is skipped. Malformed UTF-8 becomes U+FFFD, as a decoding reader would make it.
 *
 * <p>Why bytes: a history file repeats few distinct texts per column (the same quarter-hours for
 * every meter, one OBIS code, one unit), so each column keeps its recent texts keyed by their bytes
 * ({@link Texts}) and a repeated field costs a hash and a comparison of its bytes: no decoding and
 * no new string. Equal texts of a column come back as the same {@code String}, whose hash is then
 * computed once for every map that looks it up. A column whose texts do not repeat (the values)
 * stops being remembered after a short look. Reads through its own buffer, one record at a time.
 */
final class CsvRecords implements AutoCloseable {
  static final int BUFFER = 1 << 16;
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long LOWS = ONES * '-';

  private final InputStream in;
  private final byte[] buf;
  private int pos;
  private int len;
  private boolean started;
  private long line = 1;
  private long recordLine;
  // a field that is quoted or crosses the buffer's end is gathered here
  private byte[] scratch = new byte[128];
  private int scratchLength;
  private String[] fields = new String[24];
  private final List<Texts> columns = new ArrayList<>();
  // the field readPlain read, set before it returns
  private String value;

  CsvRecords(InputStream in) {
    this(in, BUFFER);
  }

  /**
   * A reader with a buffer of {@code bufferSize} bytes, at least a byte order mark's three (small
   * ones for tests of its edges).
   */
  CsvRecords(InputStream in, int bufferSize) {
    this.in = in;
    this.buf = new byte[Math.max(BOM.length, bufferSize)];
  }

  /** The line the last record returned started on (1-based). */
  long recordLine() {
    return recordLine;
  }

  /** The next record's fields, or null at the end of input. */
  String[] next() throws IOException {
    if (!started) {
      started = true;
      skipByteOrderMark();
    }
    if (!fill()) {
      return null;
    }
    recordLine = line;
    String[] plain = plainRecord();
    if (plain != null) {
      return plain;
    }
    int column = 0;
    while (true) {
      scratchLength = 0;
      boolean quoted = false;
      if (fill() && buf[pos] == '"') {
        quoted = true;
        pos++;
        readQuoted();
      }
      int end = readPlain(column, quoted);
      if (column == fields.length) {
        fields = Arrays.copyOf(fields, column * 2);
      }
      fields[column++] = value;
      if (end != ',') {
        return Arrays.copyOf(fields, column);
      }
    }
  }

  private void skipByteOrderMark() throws IOException {
    // the three bytes may arrive in more than one read
    while (len < BOM.length) {
      int n = in.read(buf, len, buf.length - len);
      if (n <= 0) {
        break;
      }
      len += n;
    }
    if (len >= BOM.length && Arrays.equals(buf, 0, BOM.length, BOM, 0, BOM.length)) {
      pos = BOM.length;
    }
  }

  /**
   * The common record, read in one loop: one that lies wholly in the buffer and holds no quote.
   * Null, with nothing consumed, for any other (the general path then reads it).
   */
  private String[] plainRecord() {
    final byte[] b = buf;
    final int n = len;
    int start = pos;
    int column = 0;
    while (true) {
      int at = start;
      while (true) {
        if (at + Long.BYTES <= n) {
          long low = below(((long) LONGS.get(b, at)));
          if (low == 0) {
            at += Long.BYTES;
            continue;
          }
          at += Long.numberOfTrailingZeros(low) >>> 3;
          if (isStructural(b[at])) {
            break;
          }
          at++; // a space or another low character inside the field
          continue;
        }
        while (at < n && !isStructural(b[at])) {
          at++;
        }
        if (at + 1 >= n) {
          return null; // the record, or its CRLF, may go on past the buffer
        }
        break;
      }
      byte c = b[at];
      if (c == '"') {
        return null;
      }
      if (column == fields.length) {
        fields = Arrays.copyOf(fields, column * 2);
      }
      fields[column++] = at > start ? texts(column - 1).get(b, start, at) : null;
      if (c == ',') {
        start = at + 1;
        continue;
      }
      if (c == '\r' && at + 1 == n) {
        return null; // its LF may come with the next read
      }
      pos = c == '\r' && b[at + 1] == '\n' ? at + 2 : at + 1;
      line++;
      return Arrays.copyOf(fields, column);
    }
  }

  private static boolean isStructural(byte c) {
    return c == ',' || c == '\n' || c == '\r' || c == '"';
  }

  /**
   * A mask with the high bit set in the lowest byte of {@code word} (little-endian) below {@code
   * '-'}, and perhaps in later bytes; zero when it has none. Every byte that ends or quotes a field
   * ({@code , " LF CR}) lies below {@code '-'}, and digits, letters, {@code - . :} and UTF-8's
   * multi-byte sequences lie above it, so one test per eight bytes finds the candidates; the caller
   * then judges the one found (the lowest flagged byte is exact, higher ones may not be).
   */
  private static long below(long word) {
    return (word - LOWS) & ~word & HIGHS;
  }

  /** Reads up to a closing quote that is not doubled, into the scratch bytes. */
  private void readQuoted() throws IOException {
    while (true) {
      if (!fill()) {
        throw new IOException("line " + recordLine + ": a quoted field is not closed");
      }
      byte c = buf[pos++];
      if (c == '"') {
        if (fill() && buf[pos] == '"') {
          append(buf, pos, pos + 1);
          pos++;
          continue;
        }
        return;
      }
      if (c == '\n') {
        line++;
      }
      append(buf, pos - 1, pos);
    }
  }

  /**
   * Reads unquoted bytes up to a comma, an end of line or the input's end; returns which, and sets
   * {@link #value}. A field wholly inside the buffer is looked up where it lies; one that follows a
   * quoted part or crosses the buffer's end is gathered in the scratch bytes first.
   */
  private int readPlain(int column, boolean quoted) throws IOException {
    boolean gathered = quoted;
    while (fill()) {
      int start = pos;
      while (pos < len) {
        // eight bytes at a time up to the first that may end the field; the loop below judges it
        while (pos + Long.BYTES <= len) {
          long low = below((long) LONGS.get(buf, pos));
          if (low != 0) {
            pos += Long.numberOfTrailingZeros(low) >>> 3;
            break;
          }
          pos += Long.BYTES;
        }
        if (pos == len) {
          break;
        }
        byte c = buf[pos];
        if (c == ',' || c == '\n' || c == '\r') {
          if (!gathered) {
            value = pos > start ? texts(column).get(buf, start, pos) : null;
          } else {
            append(buf, start, pos);
            value =
                quoted || scratchLength > 0 ? texts(column).get(scratch, 0, scratchLength) : null;
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
      append(buf, start, pos);
      gathered = true;
    }
    value = quoted || scratchLength > 0 ? texts(column).get(scratch, 0, scratchLength) : null;
    return -1;
  }

  private void append(byte[] from, int start, int end) {
    int n = end - start;
    if (scratchLength + n > scratch.length) {
      scratch = Arrays.copyOf(scratch, Math.max(scratch.length * 2, scratchLength + n));
    }
    System.arraycopy(from, start, scratch, scratchLength, n);
    scratchLength += n;
  }

  private Texts texts(int column) {
    while (columns.size() <= column) {
      columns.add(new Texts());
    }
    return columns.get(column);
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

  /**
   * One column's recent texts by their UTF-8 bytes: an open-addressing table of at most {@value
   * #LIMIT} texts, emptied when full (a file sorted by time moves on to new quarter-hours). When
   * more than three quarters of a window of {@value #WINDOW} look-ups miss, the column's texts do
   * not repeat (values, free text) and the next {@value #PAUSE} fields are decoded without looking.
   */
  static final class Texts {
    static final int SLOTS = 4096;
    static final int LIMIT = SLOTS / 2;
    static final int WINDOW = 1024;
    static final int PAUSE = 1 << 16;

    // each key's bytes zero-padded to whole words, and its length
    private final byte[][] keys = new byte[SLOTS][];
    private final int[] lengths = new int[SLOTS];
    private final String[] texts = new String[SLOTS];
    private final int[] hashes = new int[SLOTS];
    private int size;
    // the last text returned and its key: most columns repeat the record before
    private byte[] lastKey;
    private int lastLength = -1;
    private String lastText;
    private int lookups;
    private int misses;
    private int paused;

    /** The text of {@code bytes[from, to)}: the same {@code String} for the same bytes. */
    String get(byte[] bytes, int from, int to) {
      if (paused > 0) {
        paused--;
        return new String(bytes, from, to - from, StandardCharsets.UTF_8);
      }
      int n = to - from;
      if (n == lastLength && same(lastKey, bytes, from, n)) {
        count(false);
        return lastText;
      }
      int h = hash(bytes, from, n);
      int slot = h & (SLOTS - 1);
      for (byte[] key = keys[slot]; key != null; key = keys[slot]) {
        if (hashes[slot] == h && lengths[slot] == n && same(key, bytes, from, n)) {
          count(false);
          lastKey = key;
          lastLength = n;
          lastText = texts[slot];
          return lastText;
        }
        slot = (slot + 1) & (SLOTS - 1);
      }
      String text = new String(bytes, from, n, StandardCharsets.UTF_8);
      if (size == LIMIT) {
        Arrays.fill(keys, null);
        Arrays.fill(texts, null);
        size = 0;
        slot = h & (SLOTS - 1);
      }
      byte[] key = new byte[Math.max(Long.BYTES, (n + Long.BYTES - 1) & -Long.BYTES)];
      System.arraycopy(bytes, from, key, 0, n);
      keys[slot] = key;
      lengths[slot] = n;
      texts[slot] = text;
      hashes[slot] = h;
      size++;
      count(true);
      lastKey = key;
      lastLength = n;
      lastText = text;
      return text;
    }

    /**
     * Whether {@code key} (zero-padded) starts with the {@code n} bytes at {@code bytes[from]}, a
     * word at a time with the last word masked: no loop over single bytes.
     */
    private static boolean same(byte[] key, byte[] bytes, int from, int n) {
      int i = 0;
      for (; i + Long.BYTES <= n; i += Long.BYTES) {
        if ((long) LONGS.get(key, i) != (long) LONGS.get(bytes, from + i)) {
          return false;
        }
      }
      return i == n || (long) LONGS.get(key, i) == word(bytes, from + i, n - i);
    }

    /** A hash of the {@code n} bytes at {@code bytes[from]}, a word at a time. */
    private static int hash(byte[] bytes, int from, int n) {
      long h = n;
      int i = 0;
      for (; i + Long.BYTES <= n; i += Long.BYTES) {
        h = (h ^ (long) LONGS.get(bytes, from + i)) * 0x9E3779B97F4A7C15L;
      }
      if (i < n) {
        h = (h ^ word(bytes, from + i, n - i)) * 0x9E3779B97F4A7C15L;
      }
      return (int) (h ^ (h >>> 32) ^ (h >>> 17));
    }

    /**
     * The {@code n} (1 to 7) bytes at {@code bytes[at]} as the low bytes of a word, zeros above.
     */
    private static long word(byte[] bytes, int at, int n) {
      if (at + Long.BYTES <= bytes.length) {
        return (long) LONGS.get(bytes, at) & (-1L >>> ((Long.BYTES - n) * Byte.SIZE));
      }
      long w = 0;
      for (int k = n - 1; k >= 0; k--) {
        w = (w << Byte.SIZE) | (bytes[at + k] & 0xFF);
      }
      return w;
    }

    private void count(boolean miss) {
      lookups++;
      misses += miss ? 1 : 0;
      if (lookups == WINDOW) {
        if (misses * 4 > WINDOW * 3) {
          paused = PAUSE;
        }
        lookups = 0;
        misses = 0;
      }
    }
  }
}
