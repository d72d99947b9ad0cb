package org.meterstore.query.internal.function;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.id.ObisCode;
import org.meterstore.api.reading.Quality;
import org.meterstore.query.internal.state.Session;

/**
 * The scalar SQL functions. Calcite hands a {@code TIMESTAMP} over as a {@link Timestamp} whose
 * local date-time is the UTC wall clock, and takes a {@link Date} back by its local date, so every
 * conversion goes through {@code LocalDateTime}/{@code LocalDate} and the JVM's zone never matters.
 * A null argument gives null; an invalid one fails with MeterStore's {@code INVALID_INPUT} message.
 * Public because Calcite's generated code calls these methods.
 */
public final class MeterFunctions {
  private MeterFunctions() {}

  /** Every function of a catalog schema by SQL name, the completeness table function included. */
  public static Multimap<String, Function> all(Session session) {
    ImmutableMultimap.Builder<String, Function> b = ImmutableMultimap.builder();
    for (String name :
        new String[] {
          "meter_balancing_day",
          "meter_gas_day",
          "meter_expected_intervals",
          "obis_is_import",
          "obis_is_export",
          "quality_is_billable"
        }) {
      b.put(name, ScalarFunctionImpl.create(MeterFunctions.class, camel(name)));
    }
    b.put("completeness", new CompletenessMacro(session));
    return b.build();
  }

  private static String camel(String sql) {
    StringBuilder b = new StringBuilder();
    boolean upper = false;
    for (char c : sql.toCharArray()) {
      if (c == '_') {
        upper = true;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }

  /** {@code meter_balancing_day(ts, sparte)}: the gas day for GAS, else the Berlin date. */
  public static Date meterBalancingDay(Timestamp ts, String sparte) {
    if (ts == null || sparte == null) {
      return null;
    }
    return Date.valueOf(MeteringCalendar.balancingDay(instant(ts), Commodity.parse(sparte)));
  }

  /** {@code meter_gas_day(ts)}: the gas day (06:00 to 06:00 Europe/Berlin) of an instant. */
  public static Date meterGasDay(Timestamp ts) {
    return ts == null ? null : Date.valueOf(MeteringCalendar.gasDay(instant(ts)));
  }

  /** {@code meter_expected_intervals(day, resolution, sparte)}: exact across DST. */
  public static Long meterExpectedIntervals(Date day, String resolution, String sparte) {
    if (day == null || resolution == null || sparte == null) {
      return null;
    }
    return MeteringCalendar.expectedIntervals(
        day.toLocalDate(), Resolution.parse(resolution), Commodity.parse(sparte));
  }

  /** {@code obis_is_import(obis)}: whether the channel measures energy drawn from the grid. */
  public static Boolean obisIsImport(String obis) {
    return obis == null ? null : ObisCode.parse(obis).isImport();
  }

  /** {@code obis_is_export(obis)}: whether the channel measures energy fed into the grid. */
  public static Boolean obisIsExport(String obis) {
    return obis == null ? null : ObisCode.parse(obis).isExport();
  }

  /** {@code quality_is_billable(quality)}: everything but FAULTY and UNKNOWN. */
  public static Boolean qualityIsBillable(String quality) {
    return quality == null ? null : Quality.parse(quality).isBillable();
  }

  private static Instant instant(Timestamp ts) {
    return ts.toLocalDateTime().toInstant(ZoneOffset.UTC);
  }
}
