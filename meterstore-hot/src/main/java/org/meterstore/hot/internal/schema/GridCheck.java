package org.meterstore.hot.internal.schema;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.table.TableDefinition;

/**
 * The CHECK of a fixed-resolution table ({@value TableDefinition#GRID_RULE}): every row is one
 * interval of the table's resolution on the Europe/Berlin balancing calendar, the rule {@link
 * MeteringCalendar#isAligned} states in Java, and names that resolution or none.
 *
 * <p>Resolutions that divide an hour are the UTC multiples of the resolution, since Berlin's
 * offsets and both day starts are whole hours: a modulo on the epoch, no time-zone arithmetic per
 * row. Every other resolution counts from the reading's balancing-day start in Berlin local time,
 * which is 06:00 for commodities balanced on gas days and midnight otherwise, so the expression
 * reads {@code sparte}. Local midnight and 06:00 never fall into a clock change in Berlin, so
 * converting them back and forth is exact. The expression holds only quoted identifiers and code
 * constants.
 */
final class GridCheck {
  private static final String ZONE = "'" + MeteringCalendar.ZONE.getId() + "'";

  private GridCheck() {}

  /** The grid check of {@code table}; empty when it declares no resolution. */
  static Optional<CheckConstraint> of(TableDefinition table) {
    Resolution r = table.resolution();
    if (r == null) {
      return Optional.empty();
    }
    if (!r.iso().matches("[A-Z0-9]+")) {
      throw new IllegalStateException("non-canonical resolution " + r);
    }
    String names =
        quote("resolution") + " IS NULL OR " + quote("resolution") + " = '" + r.iso() + "'";
    return Optional.of(
        new CheckConstraint(TableDefinition.GRID_RULE, "(" + names + ") AND " + span(r)));
  }

  private static String span(Resolution r) {
    String from = quote("from");
    String to = quote("to");
    if (r.dividesAnHour()) {
      long step = r.fixedLength().orElseThrow().getSeconds();
      return "extract(epoch from " + from + ") % " + step + " = 0 AND " + to + " = " + plus(step);
    }
    String local = "(" + from + " AT TIME ZONE " + ZONE + ")";
    String dayStart = "(date_trunc('day', " + local + " - " + offset() + ") + " + offset() + ")";
    if (r.isSubDaily()) {
      long step = r.fixedLength().orElseThrow().getSeconds();
      return "(extract(epoch from "
          + from
          + ") - extract(epoch from ("
          + dayStart
          + " AT TIME ZONE "
          + ZONE
          + "))) % "
          + step
          + " = 0 AND "
          + to
          + " = "
          + plus(step)
          + " AND "
          + to
          + " <= (("
          + dayStart
          + " + interval '1 day') AT TIME ZONE "
          + ZONE
          + ")";
    }
    String unit = r.equals(Resolution.P1D) ? "day" : r.equals(Resolution.P1M) ? "month" : "year";
    String start =
        unit.equals("day")
            ? dayStart
            : "(date_trunc('" + unit + "', " + local + " - " + offset() + ") + " + offset() + ")";
    return local
        + " = "
        + start
        + " AND ("
        + to
        + " AT TIME ZONE "
        + ZONE
        + ") = "
        + local
        + " + interval '1 "
        + unit
        + "'";
  }

  private static String plus(long seconds) {
    return quote("from") + " + interval '" + seconds + " seconds'";
  }

  /** How far the balancing day starts after local midnight: 6 hours for gas-day commodities. */
  private static String offset() {
    String gasDay =
        Arrays.stream(Commodity.values())
            .filter(Commodity::usesGasDay)
            .map(c -> "'" + c.name() + "'")
            .collect(Collectors.joining(", "));
    return "(CASE WHEN "
        + quote("sparte")
        + " IN ("
        + gasDay
        + ") THEN interval '6 hours' ELSE interval '0 hours' END)";
  }
}
