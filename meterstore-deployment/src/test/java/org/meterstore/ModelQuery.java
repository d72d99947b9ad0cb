package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.workload.ReferenceModel;

/**
 * The reference model against what SQL answers through the façade: per market location, the row
 * count and the exact value sum of the current relation and of its {@code _versions} relation.
 */
final class ModelQuery {
  private ModelQuery() {}

  /** Asserts that both relations of {@code table} answer what {@code model} holds. */
  static void assertAgrees(MeterCatalog catalog, TableDefinition table, ReferenceModel model)
      throws SQLException {
    assertThat(query(catalog, table.name()))
        .as("current rows of %s per MaLo: count|sum", table.name())
        .isEqualTo(expected(model.current()));
    assertThat(query(catalog, table.name() + "_versions"))
        .as("every version of %s per MaLo: count|sum", table.name())
        .isEqualTo(expected(model.versions()));
  }

  private static Map<String, String> query(MeterCatalog catalog, String relation)
      throws SQLException {
    Map<String, String> out = new TreeMap<>();
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT \"malo_id\", COUNT(*), SUM(\"value\") FROM \""
                    + relation
                    + "\" GROUP BY \"malo_id\"")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2) + "|" + plain(rs.getBigDecimal(3)));
      }
    }
    return out;
  }

  private static Map<String, String> expected(Collection<StoredReading> rows) {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, BigDecimal> sums = new TreeMap<>();
    for (StoredReading s : rows) {
      String malo = s.reading().maloId().value();
      counts.merge(malo, 1L, Long::sum);
      sums.merge(malo, s.reading().value(), BigDecimal::add);
    }
    Map<String, String> out = new TreeMap<>();
    counts.forEach((malo, n) -> out.put(malo, n + "|" + plain(sums.get(malo))));
    return out;
  }

  private static String plain(BigDecimal v) {
    return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
  }
}
