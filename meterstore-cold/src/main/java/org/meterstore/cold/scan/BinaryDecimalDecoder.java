package org.meterstore.cold.scan;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Decimals stored as big-endian two's-complement bytes ({@code FIXED_LEN_BYTE_ARRAY}, as Iceberg
 * writes {@code decimal(20,0)} in 9 bytes, or {@code BINARY}) read as unscaled longs; a value that
 * does not fit a long is kept exactly as a {@link BigDecimal} in the vector's overflow array.
 */
final class BinaryDecimalDecoder extends ChunkDecoder {
  private final int scale;
  private long[] decodedLongs;
  private BigDecimal[] decodedBig;
  private long[] out = new long[0];
  private BigDecimal[] overflow = new BigDecimal[0];
  private boolean anyOverflow;
  private byte[] last;
  private long lastTail;
  private final int fixedLength;
  private ByteBuffer plain;
  private long lastLong;
  private BigDecimal lastBig;

  BinaryDecimalDecoder(ColumnDescriptor descriptor, int scale) {
    super(descriptor);
    this.scale = scale;
    this.fixedLength =
        descriptor.getPrimitiveType().getPrimitiveTypeName()
                == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            ? descriptor.getPrimitiveType().getTypeLength()
            : -1;
  }

  @Override
  boolean initPlain(Encoding encoding, ByteBufferInputStream in) throws IOException {
    plain = null;
    if (encoding != Encoding.PLAIN || fixedLength <= 0) {
      return false;
    }
    plain = in.slice(in.available());
    return true;
  }

  @Override
  void skipValues(int n) {
    if (plain != null && !dictionaryPage) {
      plain.position(plain.position() + n * fixedLength);
    } else {
      super.skipValues(n);
    }
  }

  /**
   * Whether the {@code bytes.length} bytes at {@code at} equal {@code bytes}, the last eight
   * compared as one long.
   */
  private boolean same(ByteBuffer buffer, int at, byte[] bytes) {
    int n = bytes.length;
    if (buffer.limit() - at < n) {
      return false;
    }
    int head = n - 8;
    if (head >= 0) {
      if (buffer.getLong(at + head) != lastTail) {
        return false;
      }
      for (int i = 0; i < head; i++) {
        if (buffer.get(at + i) != bytes[i]) {
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i < n; i++) {
      if (buffer.get(at + i) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  void startRowGroup(Dictionary dictionary) {
    this.decodedLongs = null;
    this.decodedBig = null;
    this.last = null;
    if (dictionary != null) {
      int n = dictionary.getMaxId() + 1;
      decodedLongs = new long[n];
      decodedBig = new BigDecimal[n];
      for (int i = 0; i < n; i++) {
        byte[] bytes = dictionary.decodeToBinary(i).getBytesUnsafe();
        if (fitsLong(bytes)) {
          decodedLongs[i] = toLong(bytes);
        } else {
          decodedBig[i] = new BigDecimal(new BigInteger(bytes), scale);
        }
      }
    }
  }

  @Override
  void ensure(int rows) {
    if (out.length < rows) {
      out = new long[rows];
      overflow = new BigDecimal[rows];
    }
    if (anyOverflow) {
      java.util.Arrays.fill(overflow, null);
      anyOverflow = false;
    }
  }

  @Override
  void decode(int row) {
    if (dictionaryPage) {
      int id = ids.next();
      BigDecimal big = decodedBig[id];
      if (big == null) {
        out[row] = decodedLongs[id];
      } else {
        overflow[row] = big;
        anyOverflow = true;
      }
      return;
    }
    byte[] bytes;
    if (plain != null) {
      // versions repeat from row to row: decode a value once per run of equal bytes
      int at = plain.position();
      if (last != null && lastBig == null && same(plain, at, last)) {
        plain.position(at + last.length);
        out[row] = lastLong;
        return;
      }
      bytes = new byte[fixedLength];
      plain.get(bytes);
    } else {
      Binary binary = values.readBytes();
      bytes = binary.getBytes();
    }
    last = bytes;
    if (bytes.length >= 8) {
      lastTail = ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong();
    }
    lastBig = null;
    if (fitsLong(bytes)) {
      lastLong = toLong(bytes);
      out[row] = lastLong;
    } else {
      lastBig = new BigDecimal(new BigInteger(bytes), scale);
      overflow[row] = lastBig;
      anyOverflow = true;
    }
  }

  @Override
  ColumnVector vector(boolean withNulls) {
    return new LongVector(out, nullsOrNull(withNulls), anyOverflow ? overflow : null);
  }

  /**
   * Whether the two's-complement {@code bytes} fit a long: every byte before the last eight
   * sign-extends.
   */
  static boolean fitsLong(byte[] bytes) {
    int extra = bytes.length - 8;
    if (extra <= 0) {
      return true;
    }
    byte sign = (byte) (bytes[extra] < 0 ? -1 : 0);
    for (int i = 0; i < extra; i++) {
      if (bytes[i] != sign) {
        return false;
      }
    }
    return true;
  }

  /** The long of two's-complement {@code bytes} that {@link #fitsLong fit}. */
  static long toLong(byte[] bytes) {
    if (bytes.length == 0) {
      return 0;
    }
    int start = Math.max(0, bytes.length - 8);
    long v = bytes[start]; // sign-extended
    for (int i = start + 1; i < bytes.length; i++) {
      v = (v << 8) | (bytes[i] & 0xFF);
    }
    return v;
  }
}
