package org.meterstore.query.internal.function;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.exec.ScanSource;
import org.meterstore.query.internal.state.Session;

/**
 * Computes completeness when enumerated: one aggregate query over the version-resolved relation
 * (through a second connection of the catalog, so the tier split and pins apply as usual), then
 * expected counts from the metering calendar and a zero row for each day a series is silent. The
 * roster is every series with at least one reading in the range.
 */
final class CompletenessSource implements ScanSource {
  private final Session session;
  private final TableDefinition def;
  private final LocalDate first;
  private final LocalDate last;

  CompletenessSource(Session session, TableDefinition def, LocalDate first, LocalDate last) {
    this.session = session;
    this.def = def;
    this.first = first;
    this.last = last;
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    Map<List<String>, Map<LocalDate, Long>> actual = actual();
    List<Object[]> rows = new ArrayList<>();
    for (Map.Entry<List<String>, Map<LocalDate, Long>> series : actual.entrySet()) {
      for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
        rows.add(row(series.getKey(), day, series.getValue().getOrDefault(day, 0L)));
      }
    }
    return Linq4j.asEnumerable(rows);
  }

  private Object[] row(List<String> series, LocalDate day, long count) {
    Long expected = expected(series.get(2), series.get(3), day);
    String status;
    if (count == 0) {
      status = "SILENT";
    } else if (expected == null) {
      status = "UNKNOWN";
    } else {
      status = count == expected ? "COMPLETE" : count < expected ? "INCOMPLETE" : "EXCESS";
    }
    Long missing = expected == null ? null : Math.max(0, expected - count);
    return new Object[] {
      series.get(0),
      series.get(1),
      series.get(2),
      series.get(3),
      (int) day.toEpochDay(),
      expected,
      count,
      missing,
      status
    };
  }

  private static Long expected(String sparte, String resolution, LocalDate day) {
    if (resolution == null) {
      return null;
    }
    Resolution r = Resolution.parse(resolution);
    if (r.isCalendar()) {
      return null;
    }
    try {
      return MeteringCalendar.expectedIntervals(day, r, Commodity.parse(sparte));
    } catch (MeterStoreException e) {
      return null;
    }
  }

  private Map<List<String>, Map<LocalDate, Long>> actual() {
    String sql =
        "SELECT malo_id, obis_code, sparte, resolution, balancing_day, count(*) FROM "
            + def.name()
            + " WHERE \"from\" >= ? AND \"from\" < ? AND balancing_day >= ? AND balancing_day <= ?"
            + " GROUP BY malo_id, obis_code, sparte, resolution, balancing_day";
    Map<List<String>, Map<LocalDate, Long>> out =
        new TreeMap<>((a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b)));
    try (Connection c = session.openConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setTimestamp(1, Timestamp.from(MeteringCalendar.dayStart(first, Commodity.STROM)));
      s.setTimestamp(2, Timestamp.from(MeteringCalendar.dayEnd(last, Commodity.GAS)));
      s.setDate(3, java.sql.Date.valueOf(first));
      s.setDate(4, java.sql.Date.valueOf(last));
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          List<String> key =
              List.of(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getString(3),
                  rs.getString(4) == null ? "" : rs.getString(4));
          out.computeIfAbsent(key, k -> new TreeMap<>())
              .put(rs.getDate(5).toLocalDate(), rs.getLong(6));
        }
      }
    } catch (SQLException e) {
      throw new MeterStoreException(
          ErrorKind.QUERY, true, "Cannot compute completeness of " + def.name() + ": " + e, e);
    }
    return out;
  }
}
