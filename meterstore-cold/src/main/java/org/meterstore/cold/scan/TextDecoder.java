package org.meterstore.cold.scan;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;

/**
 * {@code BINARY} (UTF-8) columns read as ids into a {@link ParquetTextDictionary} that lives as
 * long as the row group: dictionary-encoded pages yield the Parquet dictionary's ids as they are,
 * plain pages an id per distinct string.
 */
final class TextDecoder extends ChunkDecoder {
  private ParquetTextDictionary text;
  private int[] out = new int[0];

  TextDecoder(ColumnDescriptor descriptor) {
    super(descriptor);
  }

  @Override
  void startRowGroup(Dictionary dictionary) {
    this.text = new ParquetTextDictionary(dictionary);
  }

  @Override
  void startRowGroup(Dictionary dictionary, CachedFile cached, long chunkStart) {
    if (cached == null || dictionary == null) {
      startRowGroup(dictionary);
      return;
    }
    int size = dictionary.getMaxId() + 1;
    this.text = new ParquetTextDictionary(dictionary, cached.textStrings(chunkStart, size));
  }

  @Override
  void ensure(int rows) {
    if (out.length < rows) {
      out = new int[rows];
    }
  }

  @Override
  void decode(int row) {
    out[row] = dictionaryPage ? ids.next() : text.idOfPlain(values.readBytes().toStringUsingUTF8());
  }

  @Override
  ColumnVector vector(boolean withNulls) {
    return new TextVector(out, nullsOrNull(withNulls), text);
  }
}
