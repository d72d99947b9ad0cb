package org.meterstore.imports;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnType;

/**
 * Which Parquet column types a storage-model column accepts, and the converter that turns each
 * value into the field {@link ReadingMapper} expects. Why this set: it is what the cold tier writes
 * ({@code timestamptz} micros, {@code decimal(18,6)}, {@code decimal(20,0)}, {@code date}, strings)
 * and what DuckDB and Spark write for the same rows (timestamps in millis, nanos or Spark's INT96,
 * decimals on any physical type, plain integers for a decimal column); text works for every column
 * and is parsed exactly as CSV is. Floating point is refused (a reading's value is exact), and so
 * is a local timestamp (without {@code isAdjustedToUTC} it names no instant).
 */
final class ParquetFields {
  /** Days from the Julian day 0 to 1970-01-01 (INT96 timestamps count Julian days). */
  private static final long JULIAN_EPOCH_DAY = 2_440_588;

  private ParquetFields() {}

  /** Where a converter puts its values: slot {@code i} of the row being assembled. */
  interface Row {
    void set(int slot, Object value);
  }

  /**
   * The converter of column {@code type}, stored as {@code target}, into slot {@code slot}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the column, its type and what it
   *     accepts
   */
  static PrimitiveConverter converter(PrimitiveType type, ColumnType target, Row row, int slot) {
    PrimitiveTypeName physical = type.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    if (physical == PrimitiveTypeName.FLOAT || physical == PrimitiveTypeName.DOUBLE) {
      throw refused(type, "floating point is inexact; write it as decimal(18,6) or as text");
    }
    if (isText(type)) {
      return new Text(row, slot);
    }
    return switch (target) {
      case TEXT -> throw refused(type, "a string (BINARY, UTF-8)");
      case TIMESTAMPTZ -> instant(type, physical, logical, row, slot);
      case DECIMAL_18_6, DECIMAL_20_0 -> decimal(type, physical, logical, row, slot);
      case DATE -> {
        if (physical == PrimitiveTypeName.INT32
            && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          yield new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
              row.set(slot, LocalDate.ofEpochDay(value));
            }
          };
        }
        throw refused(type, "a date or a string");
      }
    };
  }

  private static boolean isText(PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    return type.getPrimitiveTypeName() == PrimitiveTypeName.BINARY
        && (logical == null
            || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation);
  }

  private static PrimitiveConverter instant(
      PrimitiveType type,
      PrimitiveTypeName physical,
      LogicalTypeAnnotation logical,
      Row row,
      int slot) {
    if (physical == PrimitiveTypeName.INT96) {
      return new PrimitiveConverter() {
        @Override
        public void addBinary(Binary value) {
          ByteBuffer b = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
          long nanosOfDay = b.getLong();
          long day = b.getInt() - JULIAN_EPOCH_DAY;
          row.set(slot, Instant.ofEpochSecond(day * 86_400, nanosOfDay));
        }
      };
    }
    if (physical == PrimitiveTypeName.INT64
        && logical instanceof TimestampLogicalTypeAnnotation t) {
      if (!t.isAdjustedToUTC()) {
        throw refused(
            type, "a timestamp with time zone (isAdjustedToUTC): a local one names no instant");
      }
      long perSecond =
          switch (t.getUnit()) {
            case MILLIS -> 1_000L;
            case MICROS -> 1_000_000L;
            case NANOS -> 1_000_000_000L;
          };
      long nanosPerUnit = 1_000_000_000L / perSecond;
      return new PrimitiveConverter() {
        @Override
        public void addLong(long value) {
          row.set(
              slot,
              Instant.ofEpochSecond(
                  Math.floorDiv(value, perSecond), Math.floorMod(value, perSecond) * nanosPerUnit));
        }
      };
    }
    throw refused(
        type, "a timestamp with time zone (INT64 millis, micros, nanos, or INT96) or a string");
  }

  private static PrimitiveConverter decimal(
      PrimitiveType type,
      PrimitiveTypeName physical,
      LogicalTypeAnnotation logical,
      Row row,
      int slot) {
    int scale;
    boolean unsigned = false;
    if (logical instanceof DecimalLogicalTypeAnnotation d) {
      scale = d.getScale();
    } else if (logical == null || logical instanceof IntLogicalTypeAnnotation) {
      scale = 0;
      unsigned = logical instanceof IntLogicalTypeAnnotation i && !i.isSigned();
      if (physical != PrimitiveTypeName.INT32 && physical != PrimitiveTypeName.INT64) {
        throw refused(type, "a decimal, an integer or a string");
      }
    } else {
      throw refused(type, "a decimal, an integer or a string");
    }
    boolean asUnsigned = unsigned;
    return switch (physical) {
      case INT32 ->
          new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
              long v = asUnsigned ? Integer.toUnsignedLong(value) : value;
              row.set(slot, BigDecimal.valueOf(v, scale));
            }
          };
      case INT64 ->
          new PrimitiveConverter() {
            @Override
            public void addLong(long value) {
              row.set(
                  slot,
                  asUnsigned
                      ? new BigDecimal(Long.toUnsignedString(value))
                      : BigDecimal.valueOf(value, scale));
            }
          };
      case FIXED_LEN_BYTE_ARRAY, BINARY ->
          new PrimitiveConverter() {
            @Override
            public void addBinary(Binary value) {
              row.set(slot, new BigDecimal(new BigInteger(value.getBytes()), scale));
            }
          };
      default -> throw refused(type, "a decimal, an integer or a string");
    };
  }

  private static MeterStoreException refused(PrimitiveType type, String accepted) {
    return MeterStoreException.invalid(
        "type of column " + type.getName(), describe(type), accepted);
  }

  /** {@code INT64 TIMESTAMP(MICROS,true)}, say. */
  static String describe(PrimitiveType type) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    return type.getPrimitiveTypeName() + (logical == null ? "" : " " + logical);
  }

  /**
   * Strings, decoded once per dictionary entry: the cold tier and most writers dictionary-encode
   * the ids, codes and units that repeat on every row.
   */
  private static final class Text extends PrimitiveConverter {
    private final Row row;
    private final int slot;
    private String[] dictionary;

    Text(Row row, int slot) {
      this.row = row;
      this.slot = slot;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary d) {
      dictionary = new String[d.getMaxId() + 1];
      for (int i = 0; i <= d.getMaxId(); i++) {
        dictionary[i] = d.decodeToBinary(i).toStringUsingUTF8();
      }
    }

    @Override
    public void addValueFromDictionary(int id) {
      row.set(slot, dictionary[id]);
    }

    @Override
    public void addBinary(Binary value) {
      row.set(slot, value.toStringUsingUTF8());
    }
  }
}
