package org.meterstore.cold.scan;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * {@code INT64} and {@code INT32} columns read as longs: timestamps (microseconds) and decimals
 * stored as integers (unscaled). A dictionary-encoded page is decoded through a table of the
 * dictionary's longs built once per row group.
 */
final class LongDecoder extends ChunkDecoder {
  private final boolean int32;
  private long[] decoded;
  private long[] out = new long[0];

  LongDecoder(ColumnDescriptor descriptor) {
    super(descriptor);
    this.int32 = descriptor.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32;
  }

  @Override
  void startRowGroup(Dictionary dictionary) {
    this.decoded = null;
    if (dictionary != null) {
      decoded = new long[dictionary.getMaxId() + 1];
      for (int i = 0; i < decoded.length; i++) {
        decoded[i] = int32 ? dictionary.decodeToInt(i) : dictionary.decodeToLong(i);
      }
    }
  }

  @Override
  void ensure(int rows) {
    if (out.length < rows) {
      out = new long[rows];
    }
  }

  @Override
  void decode(int row) {
    if (dictionaryPage) {
      out[row] = decoded[ids.next()];
    } else {
      out[row] = int32 ? values.readInteger() : values.readLong();
    }
  }

  @Override
  ColumnVector vector(boolean withNulls) {
    return new LongVector(out, nullsOrNull(withNulls), null);
  }
}
