package org.meterstore.imports;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Where a CSV file can be cut in two for a check on two threads: just after the first line feed at
 * or past its middle, provided no quote comes before it. Without a quote in front, no quoted field
 * can be open there, so the cut is a record boundary; and every record terminator in front (LF,
 * CRLF or a lone CR, as {@link CsvRecords} counts them) ends one line, so the second half's first
 * line is known before the first half is read. The look is a word-at-a-time count of three bytes
 * over the first half: some 20 ms for 200 MiB.
 *
 * @param at the byte offset of the second half
 * @param line the line the second half starts on (1-based; line 1 is the header)
 */
record CsvSplit(long at, long line) {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long SEVENS = 0x7F7F7F7F7F7F7F7FL;
  private static final int BUFFER = 1 << 20;

  /**
   * The cut of {@code file} ({@code size} bytes), or null when a quote comes before it or no line
   * feed follows the middle.
   */
  static CsvSplit find(Path file, long size) throws IOException {
    return find(file, size, BUFFER);
  }

  /** As {@link #find(Path, long)}, reading {@code bufferSize} bytes at a time (tests: small). */
  static CsvSplit find(Path file, long size, int bufferSize) throws IOException {
    long middle = size / 2;
    byte[] buf = new byte[bufferSize];
    long lines = 1;
    boolean pendingCr = false; // the last read ended on a CR: a lone one unless an LF comes next
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long offset = 0;
      for (int n; (n = channel.read(ByteBuffer.wrap(buf))) > 0; offset += n) {
        if (pendingCr && buf[0] != '\n') {
          lines++;
        }
        pendingCr = false;
        int i = 0;
        long words = Math.min(n, middle - offset); // a word at a time up to the middle
        for (; i + Long.BYTES <= words; i += Long.BYTES) {
          long w = (long) LONGS.get(buf, i);
          if (equal(w, '"') != 0) {
            return null;
          }
          lines += Long.bitCount(equal(w, '\n'));
          for (long cr = equal(w, '\r'); cr != 0; cr &= cr - 1) {
            int at = i + (Long.numberOfTrailingZeros(cr) >>> 3);
            if (at + 1 == n) {
              pendingCr = true;
            } else if (buf[at + 1] != '\n') {
              lines++;
            }
          }
        }
        for (; i < n; i++) {
          byte c = buf[i];
          if (c == '"') {
            return null;
          }
          if (c == '\n') {
            lines++;
            if (offset + i >= middle) {
              return new CsvSplit(offset + i + 1, lines);
            }
          } else if (c == '\r') {
            if (i + 1 == n) {
              pendingCr = true;
            } else if (buf[i + 1] != '\n') {
              lines++;
            }
          }
        }
      }
    }
    return null;
  }

  /** The high bit of each byte of {@code word} that equals {@code c}, exactly. */
  private static long equal(long word, char c) {
    long t = word ^ (ONES * c);
    return ~(((t & SEVENS) + SEVENS) | t | SEVENS);
  }

  /** The bytes of {@code file} in {@code [from, to)}. */
  static InputStream range(Path file, long from, long to) throws IOException {
    FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
    channel.position(from);
    return new Limited(Channels.newInputStream(channel), to - from);
  }

  /** An input stream that ends after {@code left} bytes. */
  private static final class Limited extends FilterInputStream {
    private long left;

    Limited(InputStream in, long left) {
      super(in);
      this.left = left;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        return -1;
      }
      int b = super.read();
      left -= b >= 0 ? 1 : 0;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      left -= Math.max(n, 0);
      return n;
    }
  }
}
