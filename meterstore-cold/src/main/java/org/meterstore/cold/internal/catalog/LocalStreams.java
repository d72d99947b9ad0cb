package org.meterstore.cold.internal.catalog;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/** The streams of {@link LocalFileIO}'s files. */
final class LocalStreams {
  private LocalStreams() {}

  /** A buffered output stream that knows how many bytes were written. */
  static final class CountingStream extends PositionOutputStream {
    private final OutputStream out;
    private long pos;
    private boolean closed;

    CountingStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      pos++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      pos += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        out.close();
      }
    }
  }

  /** A seekable stream on a file channel with a read buffer; seeking inside it keeps it. */
  static final class SeekableChannel extends SeekableInputStream {
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(8192).limit(0);
    private long bufferStart;
    private long pos;

    SeekableChannel(FileChannel channel) {
      this.channel = channel;
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
      if (newPos < 0) {
        throw new EOFException("Cannot seek to a negative position: " + newPos);
      }
      pos = newPos;
    }

    @Override
    public int read() throws IOException {
      if (!fill()) {
        return -1;
      }
      int b = buffer.get((int) (pos - bufferStart)) & 0xff;
      pos++;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (!buffered() && len >= buffer.capacity()) {
        int n = channel.read(ByteBuffer.wrap(b, off, len), pos);
        if (n <= 0) {
          return -1;
        }
        pos += n;
        return n;
      }
      if (!fill()) {
        return -1;
      }
      int at = (int) (pos - bufferStart);
      int n = Math.min(len, buffer.limit() - at);
      buffer.get(at, b, off, n);
      pos += n;
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      if (n <= 0) {
        return 0;
      }
      long skipped = Math.min(n, Math.max(0, channel.size() - pos));
      pos += skipped;
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return (int) Math.min(Integer.MAX_VALUE, Math.max(0, channel.size() - pos));
    }

    private boolean buffered() {
      return pos >= bufferStart && pos < bufferStart + buffer.limit();
    }

    private boolean fill() throws IOException {
      if (buffered()) {
        return true;
      }
      buffer.clear();
      int n = channel.read(buffer, pos);
      if (n <= 0) {
        buffer.limit(0);
        return false;
      }
      buffer.flip();
      bufferStart = pos;
      return true;
    }

    @Override
    public void close() throws IOException {
      channel.close();
    }
  }
}
