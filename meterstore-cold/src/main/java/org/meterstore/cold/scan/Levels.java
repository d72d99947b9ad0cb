package org.meterstore.cold.scan;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;

/** The definition levels of one data page: one per value slot, null below the maximum. */
interface Levels {
  int next();

  /** Levels of a column that is never null (maximum level 0). */
  Levels NONE = () -> 0;

  /** Levels of a version-1 page, read through the page's level encoding. */
  static Levels of(ValuesReader reader) {
    return reader::readInteger;
  }

  /** Levels of a version-2 page: RLE/bit-packed without a length prefix. */
  static Levels rle(int maxLevel, BytesInput bytes) {
    try {
      RunLengthBitPackingHybridDecoder decoder =
          new RunLengthBitPackingHybridDecoder(
              BytesUtils.getWidthFromMaxInt(maxLevel), bytes.toInputStream());
      return () -> {
        try {
          return decoder.readInt();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
