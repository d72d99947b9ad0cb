package org.meterstore.cold.internal.layout;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.TableDefinition;

/**
 * Converts between MeterStore's row arrays (in {@code columns()} order, {@code Instant} for
 * timestamptz) and Iceberg generic records of the table's <em>current</em> schema, matching columns
 * by name. A configured column the table lacks is not written and a table column the configuration
 * lacks is written null: the drift check has accepted exactly those differences before a write
 * (nullable columns only). Timestamps become {@code OffsetDateTime} in UTC and decimals take the
 * column's scale exactly. Not thread-safe.
 */
public final class RowConverter {
  private final String tableName;
  private final Schema schema;
  private final List<Types.NestedField> fields;
  private final int[] sourceIndex;
  private final String[] configured;
  private final GenericRecord template;
  // toInternal's last value per field and what it became.
  private final Object[] lastIn;
  private final Object[] lastOut;

  /** A converter between {@code table}'s rows and records of {@code schema}. */
  public RowConverter(TableDefinition table, Schema schema) {
    this.tableName = table.name();
    this.schema = schema;
    this.fields = schema.columns();
    List<String> names = table.columns().stream().map(ColumnSpec::name).toList();
    this.configured = names.toArray(new String[0]);
    this.sourceIndex = new int[fields.size()];
    this.template = GenericRecord.create(schema);
    this.lastIn = new Object[fields.size()];
    this.lastOut = new Object[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      sourceIndex[i] = names.indexOf(fields.get(i).name());
    }
  }

  /** The schema records are built for. */
  public Schema schema() {
    return schema;
  }

  /**
   * The record of one row.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} when a required value is missing or a value
   *     does not fit its column
   */
  public Record toRecord(Object[] row) {
    requireLength(row);
    GenericRecord record = template.copy();
    for (int i = 0; i < fields.size(); i++) {
      Object value = value(row, i);
      record.set(i, value == null ? null : toIceberg(fields.get(i), value));
    }
    return record;
  }

  /**
   * The row in Iceberg's internal representation, in the schema's field order: {@code Long}
   * microseconds for timestamps, {@code Integer} days for dates, decimals at the column's scale,
   * strings as they are. This is what partition keys and Iceberg's Parquet writer for internal rows
   * take, without the {@code OffsetDateTime} a {@link Record} needs for each timestamp.
   *
   * <p>Consecutive rows share most values, often as the same object (the hot tier's reader reuses
   * them): a value identical to the previous row's in the same field converts once. So this method
   * is not thread-safe.
   *
   * @throws MeterStoreException as {@link #toRecord}
   */
  public InternalRow toInternal(Object[] row) {
    requireLength(row);
    Object[] values = new Object[fields.size()];
    for (int i = 0; i < values.length; i++) {
      Object value = value(row, i);
      if (value == null) {
        continue;
      }
      if (value != lastIn[i]) {
        lastOut[i] = toInternal(fields.get(i), value);
        lastIn[i] = value;
      }
      values[i] = lastOut[i];
    }
    return new InternalRow(values);
  }

  private void requireLength(Object[] row) {
    if (row.length != configured.length) {
      throw MeterStoreException.invalid(
          "row", row.length + " values", "table " + tableName + " has " + configured.length);
    }
  }

  /** The configured value of field {@code i}: null where the configuration lacks the column. */
  private Object value(Object[] row, int i) {
    Object value = sourceIndex[i] < 0 ? null : row[sourceIndex[i]];
    if (value == null && fields.get(i).isRequired()) {
      throw MeterStoreException.invalid(
          fields.get(i).name(), null, "required in cold table " + tableName);
    }
    return value;
  }

  private Object toInternal(Types.NestedField field, Object value) {
    Type type = field.type();
    try {
      switch (type.typeId()) {
        case TIMESTAMP:
          Instant t = (Instant) value;
          return Math.addExact(
              Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
        case DATE:
          return Math.toIntExact(((LocalDate) value).toEpochDay());
        case DECIMAL:
          return ((BigDecimal) value).setScale(((Types.DecimalType) type).scale());
        case STRING:
          return (String) value;
        default:
          return value;
      }
    } catch (ClassCastException | ArithmeticException e) {
      throw MeterStoreException.invalid(
          field.name(), value, "does not fit " + type + " in cold table " + tableName);
    }
  }

  private Object toIceberg(Types.NestedField field, Object value) {
    Type type = field.type();
    try {
      switch (type.typeId()) {
        case TIMESTAMP:
          return OffsetDateTime.ofInstant((Instant) value, ZoneOffset.UTC);
        case DECIMAL:
          return ((BigDecimal) value).setScale(((Types.DecimalType) type).scale());
        default:
          return value;
      }
    } catch (ClassCastException | ArithmeticException e) {
      throw MeterStoreException.invalid(
          field.name(), value, "does not fit " + type + " in cold table " + tableName);
    }
  }

  /** The row of a record read with any schema: configured columns the record lacks are null. */
  public Object[] toRow(Record record) {
    Object[] row = new Object[configured.length];
    Types.StructType struct = record.struct();
    for (int i = 0; i < configured.length; i++) {
      Types.NestedField field = struct.field(configured[i]);
      if (field != null) {
        Object value = record.getField(configured[i]);
        row[i] = value instanceof OffsetDateTime ? ((OffsetDateTime) value).toInstant() : value;
      }
    }
    return row;
  }

  /** The number of values in a configured row. */
  public int width() {
    return configured.length;
  }

  /** The name of the column at {@code index} of the configured row. */
  public String columnName(int index) {
    return configured[index];
  }

  /** The index of {@code column} in the configured row, or -1. */
  public int indexOf(String column) {
    for (int i = 0; i < configured.length; i++) {
      if (configured[i].equals(column)) {
        return i;
      }
    }
    return -1;
  }
}
