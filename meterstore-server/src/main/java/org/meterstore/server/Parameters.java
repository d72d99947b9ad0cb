package org.meterstore.server;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.apache.arrow.adapter.jdbc.JdbcFieldInfo;
import org.apache.arrow.adapter.jdbc.JdbcToArrowUtils;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * A prepared statement's parameters between Arrow and JDBC: the schema a client binds to (each
 * parameter's own type, so a client binds a timestamp as a timestamp — milliseconds in UTC, the
 * precision of MeterStore's SQL timestamps — and a decimal as a decimal), and the bound values as
 * the MeterStore connection takes them.
 */
final class Parameters {
  private Parameters() {}

  /**
   * The parameter schema of a statement whose parameters {@code md} describes; a parameter whose
   * type Arrow's JDBC adapter does not map is text.
   */
  static Schema schema(ParameterMetaData md) throws SQLException {
    Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    List<Field> fields = new ArrayList<>();
    for (int i = 1; i <= md.getParameterCount(); i++) {
      fields.add(Field.nullable("p" + i, type(md, i, utc)));
    }
    return new Schema(fields);
  }

  private static ArrowType type(ParameterMetaData md, int index, Calendar utc) {
    try {
      int jdbcType = md.getParameterType(index);
      if (jdbcType == Types.TIMESTAMP || jdbcType == Types.TIMESTAMP_WITH_TIMEZONE) {
        // milliseconds, the precision of MeterStore's SQL timestamps; also what Arrow's Flight
        // SQL JDBC driver 18.3 writes whatever the declared unit (it put milliseconds into a
        // microsecond parameter: a 2026 instant arrived as one in January 1970)
        return new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC");
      }
      ArrowType t =
          JdbcToArrowUtils.getArrowTypeFromJdbcType(
              new JdbcFieldInfo(jdbcType, md.getPrecision(index), md.getScale(index)), utc);
      return t == null ? ArrowType.Utf8.INSTANCE : t;
    } catch (SQLException | RuntimeException e) {
      return ArrowType.Utf8.INSTANCE;
    }
  }

  /**
   * Row {@code row} of {@code vector} as the JDBC value to bind: text as a string, a timestamp (any
   * unit; without a zone it is read as UTC) as a {@link Timestamp} of that instant, a date as a
   * {@link java.sql.Date}, other values as Arrow gives them (numbers, decimals, booleans).
   */
  static Object value(FieldVector vector, int row) {
    if (vector.isNull(row)) {
      return null;
    }
    if (vector instanceof TimeStampVector ts
        && vector.getField().getType() instanceof ArrowType.Timestamp t) {
      return Timestamp.from(instant(ts.get(row), t.getUnit()));
    }
    if (vector instanceof DateDayVector days) {
      return java.sql.Date.valueOf(LocalDate.ofEpochDay(days.get(row)));
    }
    Object value = vector.getObject(row);
    return value instanceof Text text ? text.toString() : value;
  }

  private static Instant instant(long raw, TimeUnit unit) {
    return switch (unit) {
      case SECOND -> Instant.ofEpochSecond(raw);
      case MILLISECOND -> Instant.ofEpochMilli(raw);
      case MICROSECOND ->
          Instant.ofEpochSecond(
              Math.floorDiv(raw, 1_000_000L), Math.floorMod(raw, 1_000_000L) * 1000L);
      case NANOSECOND ->
          Instant.ofEpochSecond(
              Math.floorDiv(raw, 1_000_000_000L), Math.floorMod(raw, 1_000_000_000L));
    };
  }
}
