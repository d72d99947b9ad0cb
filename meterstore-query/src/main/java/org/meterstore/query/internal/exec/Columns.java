package org.meterstore.query.internal.exec;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * How a table's columns look to Calcite and how stored values become Calcite's internal values:
 * text as {@code String}, timestamptz as {@code TIMESTAMP(3)} held as epoch milliseconds ({@code
 * Long}, UTC), date as {@code DATE} held as epoch days ({@code Integer}), decimals as {@code
 * BigDecimal} with their stored scale.
 */
public final class Columns {
  private Columns() {}

  /** The row type of {@code table}: every column in storage order. */
  public static RelDataType rowType(TableDefinition table, RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (ColumnSpec c : table.columns()) {
      b.add(c.name(), f.createTypeWithNullability(sqlType(c.type(), f), c.nullable()));
    }
    return b.build();
  }

  /** The Calcite type of a column type. */
  public static RelDataType sqlType(ColumnType type, RelDataTypeFactory f) {
    switch (type) {
      case TEXT:
        return f.createSqlType(SqlTypeName.VARCHAR);
      case TIMESTAMPTZ:
        return f.createSqlType(SqlTypeName.TIMESTAMP, 3);
      case DATE:
        return f.createSqlType(SqlTypeName.DATE);
      case DECIMAL_18_6:
        return f.createSqlType(SqlTypeName.DECIMAL, 18, 6);
      case DECIMAL_20_0:
        return f.createSqlType(SqlTypeName.DECIMAL, 20, 0);
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }

  /** The index of {@code name} in {@code table}'s columns, or -1. */
  public static int indexOf(TableDefinition table, String name) {
    List<ColumnSpec> columns = table.columns();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Reads one column of a result row as Calcite's internal value. */
  @FunctionalInterface
  public interface Reader {
    Object read(ResultSet rs, int index) throws SQLException;
  }

  /** Reads a {@code bigint} (a count) as a {@code Long}. */
  public static final Reader LONG =
      (rs, index) -> {
        long v = rs.getLong(index);
        return rs.wasNull() ? null : v;
      };

  /** The reader of a column of {@code type}. */
  public static Reader reader(ColumnType type) {
    return (rs, index) -> fromJdbc(rs, index, type);
  }

  /** The internal value of column {@code type} read from {@code rs} at {@code index}. */
  public static Object fromJdbc(ResultSet rs, int index, ColumnType type) throws SQLException {
    switch (type) {
      case TIMESTAMPTZ:
        OffsetDateTime t = rs.getObject(index, OffsetDateTime.class);
        return t == null ? null : t.toInstant().toEpochMilli();
      case DATE:
        LocalDate d = rs.getObject(index, LocalDate.class);
        return d == null ? null : (int) d.toEpochDay();
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return rs.getBigDecimal(index);
      default:
        return rs.getString(index);
    }
  }

  /** The JDBC parameter value of an internal value of column {@code type}. */
  public static Object toJdbc(Object internal, ColumnType type) {
    if (internal == null) {
      return null;
    }
    switch (type) {
      case TIMESTAMPTZ:
        return OffsetDateTime.ofInstant(
            Instant.ofEpochMilli(((Number) internal).longValue()), ZoneOffset.UTC);
      case DATE:
        return LocalDate.ofEpochDay(((Number) internal).longValue());
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return internal instanceof BigDecimal ? internal : new BigDecimal(internal.toString());
      default:
        return internal.toString();
    }
  }
}
