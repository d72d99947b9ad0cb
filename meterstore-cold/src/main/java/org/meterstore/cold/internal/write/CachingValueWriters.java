package org.meterstore.cold.internal.write;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.data.parquet.InternalWriter;
import org.apache.iceberg.parquet.ParquetValueWriter;
import org.apache.iceberg.parquet.ParquetValueWriters;
import org.apache.iceberg.types.Type.TypeID;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The Parquet value writer of a flat schema for rows in Iceberg's internal representation ({@link
 * org.meterstore.cold.internal.layout.InternalRow}): a drop-in for {@link
 * InternalWriter#createWriter} in {@code Parquet.WriteBuilder.createWriterFunc} that writes the
 * same Parquet values, but converts a value repeated as the same object once (see {@link
 * CachingPrimitiveWriters}).
 *
 * <p>It handles top-level required or optional columns of type {@code string}, {@code decimal(p,s)}
 * stored as {@code INT64} or fixed bytes, {@code timestamp}/{@code timestamptz} (micro- or
 * nanoseconds), {@code date}, {@code int} and {@code long}: every column of the cold layout. A
 * schema with anything else (a nested type, another primitive or Parquet encoding) gets Iceberg's
 * {@code InternalWriter} for the whole schema, so an unforeseen type is written the way Iceberg
 * writes it, never wrongly. The Parquet schema itself always comes from Iceberg.
 */
final class CachingValueWriters {
  private CachingValueWriters() {}

  /** The writer of {@code schema}'s rows into {@code message}, Iceberg's Parquet schema of it. */
  static ParquetValueWriter<?> create(Schema schema, MessageType message) {
    List<ParquetValueWriter<?>> writers = columnWriters(schema.asStruct(), message);
    if (writers == null) {
      return InternalWriter.createWriter(schema, message);
    }
    return new RowWriter(schema.asStruct(), writers);
  }

  /** Whether {@link #create} uses its own writers for {@code schema} (false: Iceberg's). */
  static boolean handles(Schema schema, MessageType message) {
    return columnWriters(schema.asStruct(), message) != null;
  }

  /** One writer per field, or null when a field is not one this class handles. */
  private static List<ParquetValueWriter<?>> columnWriters(
      Types.StructType struct, MessageType message) {
    List<Types.NestedField> fields = struct.fields();
    if (fields.size() != message.getFieldCount()) {
      return null;
    }
    List<ParquetValueWriter<?>> writers = new ArrayList<>(fields.size());
    for (int i = 0; i < fields.size(); i++) {
      Type parquet = message.getType(i);
      Types.NestedField field = fields.get(i);
      if (!parquet.isPrimitive()
          || parquet.isRepetition(Type.Repetition.REPEATED)
          || parquet.getId() == null
          || parquet.getId().intValue() != field.fieldId()) {
        return null;
      }
      ColumnDescriptor desc = message.getColumnDescription(new String[] {parquet.getName()});
      ParquetValueWriter<?> writer =
          primitive(field.type().typeId(), parquet.asPrimitiveType(), desc);
      if (writer == null) {
        return null;
      }
      int definitionLevel = message.getMaxDefinitionLevel(parquet.getName());
      writers.add(ParquetValueWriters.option(parquet, definitionLevel, writer));
    }
    return writers;
  }

  private static ParquetValueWriter<?> primitive(
      TypeID iceberg, PrimitiveType parquet, ColumnDescriptor desc) {
    PrimitiveTypeName physical = parquet.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = parquet.getLogicalTypeAnnotation();
    switch (iceberg) {
      case STRING:
        return physical == PrimitiveTypeName.BINARY
                && logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            ? new CachingPrimitiveWriters.StringWriter(desc)
            : null;
      case DECIMAL:
        return decimal(physical, logical, desc);
      case TIMESTAMP:
      case TIMESTAMP_NANO:
        return physical == PrimitiveTypeName.INT64
                && logical instanceof TimestampLogicalTypeAnnotation
                && ((TimestampLogicalTypeAnnotation) logical).getUnit() != TimeUnit.MILLIS
            ? new CachingPrimitiveWriters.LongWriter(desc)
            : null;
      case DATE:
        return physical == PrimitiveTypeName.INT32
                && logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
            ? new CachingPrimitiveWriters.IntWriter(desc)
            : null;
      case INTEGER:
        return physical == PrimitiveTypeName.INT32 && logical == null
            ? new CachingPrimitiveWriters.IntWriter(desc)
            : null;
      case LONG:
        return physical == PrimitiveTypeName.INT64 && logical == null
            ? new CachingPrimitiveWriters.LongWriter(desc)
            : null;
      default:
        return null;
    }
  }

  private static ParquetValueWriter<?> decimal(
      PrimitiveTypeName physical, LogicalTypeAnnotation logical, ColumnDescriptor desc) {
    if (!(logical instanceof DecimalLogicalTypeAnnotation)) {
      return null;
    }
    DecimalLogicalTypeAnnotation decimal = (DecimalLogicalTypeAnnotation) logical;
    int precision = decimal.getPrecision();
    int scale = decimal.getScale();
    if (physical == PrimitiveTypeName.INT64 && precision <= 18) {
      return new CachingPrimitiveWriters.LongDecimalWriter(desc, precision, scale);
    }
    if (physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      return new CachingPrimitiveWriters.FixedDecimalWriter(desc, precision, scale);
    }
    return null;
  }

  /** Writes a row's fields in order; reads {@code StructLike} positions like Iceberg's writer. */
  private static final class RowWriter extends ParquetValueWriters.StructWriter<StructLike> {
    RowWriter(Types.StructType struct, List<ParquetValueWriter<?>> writers) {
      super(struct, writers);
    }

    @Override
    protected Object get(StructLike row, int index) {
      return row.get(index, Object.class);
    }
  }
}
