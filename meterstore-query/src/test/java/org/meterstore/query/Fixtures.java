package org.meterstore.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.testing.workload.Rows;
import org.meterstore.testing.workload.Workload;

/** Small readings and query helpers for the query tests. */
final class Fixtures {
  static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  static final Instant DAY2 = Instant.parse("2026-01-02T00:00:00Z");
  static final Instant DAY3 = Instant.parse("2026-01-03T00:00:00Z");
  static final Instant DAY4 = Instant.parse("2026-01-04T00:00:00Z");
  static final String OPERATOR = Workload.OPERATOR;

  private Fixtures() {}

  /** A quarter-hour STROM reading of meter {@code meter} from {@code from}. */
  static Reading reading(int meter, Instant from, String value, String version) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version(version)
        .operator(OPERATOR)
        .build();
  }

  /** Hourly readings of meters 1..{@code meters} in {@code [from, to)}, all at {@code version}. */
  static List<Reading> hourly(int meters, Instant from, Instant to, String version) {
    List<Reading> out = new ArrayList<>();
    for (Instant t = from; t.isBefore(to); t = t.plus(Duration.ofHours(1))) {
      for (int m = 1; m <= meters; m++) {
        out.add(reading(m, t, m + "." + (t.getEpochSecond() / 3600 % 10), version));
      }
    }
    return out;
  }

  /** Every row of {@code sql} as text, one line per row, columns joined by {@code |}. */
  static List<String> query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return Rows.read(rs);
    }
  }

  /** The plan of {@code sql}. */
  static String explain(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder b = new StringBuilder();
      while (rs.next()) {
        b.append(rs.getString(1));
      }
      return b.toString();
    }
  }

  /** The single value of {@code sql}. */
  static String scalar(Connection c, String sql) throws SQLException {
    List<String> rows = query(c, sql);
    if (rows.size() != 1) {
      throw new AssertionError("expected one row of " + sql + ", got " + rows);
    }
    String row = rows.get(0);
    return row.substring(0, row.length() - 1);
  }
}
