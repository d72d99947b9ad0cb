package org.meterstore.cold.scan;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Decodes the dictionary ids of one dictionary-encoded data page at once: a bit-width byte, then
 * the RLE / bit-packed hybrid runs of the Parquet format. Parquet's own reader decodes them one
 * call per value through a stream; decoding the page into an {@code int[]} makes reading an id an
 * array access.
 */
final class DictionaryIds {
  private int[] ids = new int[0];
  private int position;

  /** Decodes the {@code count} (at most) ids that follow in {@code in}. */
  void decode(ByteBufferInputStream in, int count) throws IOException {
    ByteBuffer page = in.slice(in.available());
    int bitWidth = page.get() & 0xFF;
    int bytesPerValue = (bitWidth + 7) / 8;
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    if (ids.length < count + 8) {
      ids = new int[count + 8];
    }
    int n = 0;
    while (n < count && page.hasRemaining()) {
      int header = readUnsignedVarInt(page);
      if ((header & 1) == 0) {
        int run = header >>> 1;
        int value = 0;
        for (int b = 0; b < bytesPerValue; b++) {
          value |= (page.get() & 0xFF) << (8 * b);
        }
        int end = Math.min(count, n + run);
        java.util.Arrays.fill(ids, n, end, value);
        n = end;
      } else {
        int groups = header >>> 1;
        if (ids.length < n + groups * 8) {
          ids = java.util.Arrays.copyOf(ids, n + groups * 8);
        }
        for (int g = 0; g < groups; g++) {
          packer.unpack8Values(page, page.position(), ids, n);
          page.position(page.position() + bitWidth);
          n += 8;
        }
      }
    }
    position = 0;
  }

  /** Skips the next {@code n} ids of the page. */
  void skip(int n) {
    position += n;
  }

  /** The next id of the page. */
  int next() {
    return ids[position++];
  }

  private static int readUnsignedVarInt(ByteBuffer in) {
    int value = 0;
    int shift = 0;
    int b;
    do {
      b = in.get() & 0xFF;
      value |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return value;
  }
}
