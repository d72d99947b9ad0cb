package org.meterstore.cold.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The page-at-once id decoder reads what Parquet's own RLE/bit-packed encoder writes. */
class DictionaryIdsTest {

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3, 8, 12, 17})
  void decodesWhatParquetEncodes(int bitWidth) throws IOException {
    Random random = new Random(bitWidth);
    int count = 5_003;
    int[] expected = new int[count];
    int max = bitWidth == 0 ? 0 : (1 << bitWidth) - 1;
    for (int i = 0; i < count; ) {
      int run = random.nextBoolean() ? 1 + random.nextInt(40) : 1;
      int v = max == 0 ? 0 : random.nextInt(max + 1);
      for (int k = 0; k < run && i < count; k++) {
        expected[i++] = run == 1 && max > 0 ? random.nextInt(max + 1) : v;
      }
    }
    byte[] encoded;
    try (RunLengthBitPackingHybridEncoder encoder =
        new RunLengthBitPackingHybridEncoder(
            bitWidth, 64, 1 << 20, HeapByteBufferAllocator.getInstance())) {
      for (int v : expected) {
        encoder.writeInt(v);
      }
      encoded = encoder.toBytes().toInputStream().readAllBytes();
    }
    ByteBuffer page = ByteBuffer.allocate(encoded.length + 1);
    page.put((byte) bitWidth).put(encoded).flip();

    DictionaryIds ids = new DictionaryIds();
    ids.decode(ByteBufferInputStream.wrap(page), count);

    int[] decoded = new int[count];
    for (int i = 0; i < count; i++) {
      decoded[i] = ids.next();
    }
    assertThat(decoded).containsExactly(expected);
  }
}
