package org.meterstore.cold.scan;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;

/** {@code INT32} {@code DATE} columns read as epoch days. */
final class DateDecoder extends ChunkDecoder {
  private int[] decoded;
  private int[] out = new int[0];

  DateDecoder(ColumnDescriptor descriptor) {
    super(descriptor);
  }

  @Override
  void startRowGroup(Dictionary dictionary) {
    this.decoded = null;
    if (dictionary != null) {
      decoded = new int[dictionary.getMaxId() + 1];
      for (int i = 0; i < decoded.length; i++) {
        decoded[i] = dictionary.decodeToInt(i);
      }
    }
  }

  @Override
  void ensure(int rows) {
    if (out.length < rows) {
      out = new int[rows];
    }
  }

  @Override
  void decode(int row) {
    out[row] = dictionaryPage ? decoded[ids.next()] : values.readInteger();
  }

  @Override
  ColumnVector vector(boolean withNulls) {
    return new IntVector(out, nullsOrNull(withNulls));
  }
}
