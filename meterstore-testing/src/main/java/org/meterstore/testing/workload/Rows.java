package org.meterstore.testing.workload;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;

/** Rows as comparable text, from JDBC results and from the reference model alike. */
public final class Rows {
  /** The columns the tests compare (every column but provenance and source kind). */
  public static final String COLUMNS =
      "malo_id, melo_id, obis_code, sparte, \"from\", \"to\", \"value\", unit, quality,"
          + " resolution, version, version_scope, recorded_at, balancing_day";

  private Rows() {}

  public static List<String> read(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      StringBuilder b = new StringBuilder();
      for (int i = 1; i <= n; i++) {
        Object v = rs.getObject(i);
        if (v instanceof Timestamp t) {
          v = t.toInstant();
        } else if (v instanceof java.sql.Date d) {
          v = d.toLocalDate();
        }
        b.append(text(v)).append('|');
      }
      out.add(b.toString());
    }
    out.sort(null);
    return out;
  }

  public static List<String> of(TableDefinition def, Collection<StoredReading> readings) {
    List<ColumnSpec> columns = def.columns();
    List<String> names = List.of(COLUMNS.replace("\"", "").split(",\\s*"));
    List<String> out = new ArrayList<>();
    for (StoredReading r : readings) {
      Object[] row = StoredRow.of(def, r);
      StringBuilder b = new StringBuilder();
      for (String name : names) {
        for (int i = 0; i < columns.size(); i++) {
          if (columns.get(i).name().equals(name)) {
            b.append(text(row[i])).append('|');
          }
        }
      }
      out.add(b.toString());
    }
    out.sort(null);
    return out;
  }

  public static String text(Object v) {
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }
    if (v instanceof Instant || v instanceof LocalDate) {
      return v.toString();
    }
    return String.valueOf(v);
  }
}
