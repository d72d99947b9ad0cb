package org.meterstore.cold.internal.write;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.iceberg.parquet.ParquetValueWriters.PrimitiveWriter;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet value writers for the primitive columns of the cold layout that remember the last value
 * object they saw and what it became.
 *
 * <p>Why: archival rows repeat the previous row's value object in most columns (MaLo id, unit,
 * quality, version, {@code recorded_at}…), and Iceberg's writers redo the conversion per value: a
 * UTF-8 encoding and a ByteBuffer-backed {@link Binary} per string, a {@code BigInteger} per
 * decimal. These writers convert a value once and write the same result while the same object comes
 * again. Only immutable JDK types are cached ({@code String}, {@code BigDecimal} itself, not a
 * subclass): a mutable {@code CharSequence} could change between two rows while staying the same
 * object, so it goes to Iceberg's writer every time. A string equal to the previous one but another
 * object reuses the previous {@link Binary} too (one {@code equals} instead of an encoding).
 *
 * <p>Every cached {@link Binary} is a constant over a byte array that nothing writes to after it
 * was made, so Parquet's dictionary, statistics and bloom filters may keep it without copying. The
 * values written equal Iceberg's {@code InternalWriter}'s byte for byte; decimal scale and
 * precision are checked as Iceberg checks them (an {@link IllegalArgumentException}). Not
 * thread-safe: one writer per file, as Iceberg uses them.
 */
final class CachingPrimitiveWriters {
  private CachingPrimitiveWriters() {}

  /**
   * UTF-8 strings (Iceberg {@code string}, Parquet {@code BINARY} annotated {@code STRING}). Any
   * {@code CharSequence} other than a {@code String} goes to Iceberg's own string writer on the
   * same column, uncached.
   */
  static final class StringWriter extends PrimitiveWriter<CharSequence> {
    private final ParquetValueWriter<CharSequence> other;
    private String last;
    private Binary lastBinary;

    StringWriter(ColumnDescriptor desc) {
      super(desc);
      this.other = ParquetValueWriters.strings(desc);
    }

    @Override
    public void write(int repetitionLevel, CharSequence value) {
      if (value != last) {
        if (!(value instanceof String)) {
          other.write(repetitionLevel, value);
          return;
        }
        String s = (String) value;
        if (!s.equals(last)) {
          lastBinary = Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
        }
        last = s;
      }
      column.writeBinary(repetitionLevel, lastBinary);
    }

    @Override
    public void setColumnStore(ColumnWriteStore columnStore) {
      super.setColumnStore(columnStore);
      other.setColumnStore(columnStore);
    }
  }

  /** Decimals of precision up to 18 stored as {@code INT64} (the unscaled value). */
  static final class LongDecimalWriter extends PrimitiveWriter<BigDecimal> {
    private final int precision;
    private final int scale;
    private BigDecimal last;
    private long lastUnscaled;

    LongDecimalWriter(ColumnDescriptor desc, int precision, int scale) {
      super(desc);
      this.precision = precision;
      this.scale = scale;
    }

    @Override
    public void write(int repetitionLevel, BigDecimal value) {
      if (value != last) {
        long unscaled = unscaled(value);
        if (value.getClass() == BigDecimal.class) {
          last = value;
          lastUnscaled = unscaled;
        }
        column.writeLong(repetitionLevel, unscaled);
        return;
      }
      column.writeLong(repetitionLevel, lastUnscaled);
    }

    private long unscaled(BigDecimal value) {
      check(value, precision, scale);
      // Scale 0 after the move: longValue() is then exact (|value| < 10^18) and needs no
      // BigInteger.
      return value.movePointRight(scale).longValue();
    }
  }

  /** Decimals stored as {@code FIXED_LEN_BYTE_ARRAY}: two's complement, big-endian, sign-filled. */
  static final class FixedDecimalWriter extends PrimitiveWriter<BigDecimal> {
    private final int precision;
    private final int scale;
    private final int length;
    private BigDecimal last;
    private Binary lastBinary;

    FixedDecimalWriter(ColumnDescriptor desc, int precision, int scale) {
      super(desc);
      this.precision = precision;
      this.scale = scale;
      this.length = desc.getPrimitiveType().getTypeLength();
    }

    @Override
    public void write(int repetitionLevel, BigDecimal value) {
      if (value != last) {
        Binary binary = binary(value);
        if (value.getClass() == BigDecimal.class) {
          last = value;
          lastBinary = binary;
        }
        column.writeBinary(repetitionLevel, binary);
        return;
      }
      column.writeBinary(repetitionLevel, lastBinary);
    }

    private Binary binary(BigDecimal value) {
      check(value, precision, scale);
      byte[] unscaled = value.unscaledValue().toByteArray();
      if (unscaled.length > length) {
        throw new IllegalArgumentException(
            String.format(
                "Cannot write value as decimal(%s,%s), %s bytes exceed fixed[%s]: %s",
                precision, scale, unscaled.length, length, value));
      }
      byte[] bytes = new byte[length];
      int offset = length - unscaled.length;
      if (value.signum() < 0) {
        for (int i = 0; i < offset; i++) {
          bytes[i] = (byte) 0xFF;
        }
      }
      System.arraycopy(unscaled, 0, bytes, offset, unscaled.length);
      return Binary.fromConstantByteArray(bytes);
    }
  }

  /** {@code INT64} values: timestamps in micro- or nanoseconds and Iceberg {@code long}. */
  static final class LongWriter extends PrimitiveWriter<Long> {
    LongWriter(ColumnDescriptor desc) {
      super(desc);
    }

    @Override
    public void write(int repetitionLevel, Long value) {
      column.writeLong(repetitionLevel, value);
    }
  }

  /** {@code INT32} values: dates in days and Iceberg {@code int}. */
  static final class IntWriter extends PrimitiveWriter<Integer> {
    IntWriter(ColumnDescriptor desc) {
      super(desc);
    }

    @Override
    public void write(int repetitionLevel, Integer value) {
      column.writeInteger(repetitionLevel, value);
    }
  }

  /** Refuses a decimal whose scale differs from the column's or whose precision exceeds it. */
  static void check(BigDecimal value, int precision, int scale) {
    if (value.scale() != scale) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot write value as decimal(%s,%s), wrong scale: %s", precision, scale, value));
    }
    if (value.precision() > precision) {
      throw new IllegalArgumentException(
          String.format(
              "Cannot write value as decimal(%s,%s), too large: %s", precision, scale, value));
    }
  }
}
