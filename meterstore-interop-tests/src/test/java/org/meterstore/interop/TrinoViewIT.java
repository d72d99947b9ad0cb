package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The resolved view named in Trino (issue #34 items 3 and 4): {@code
 * meterstore.meterstore.lastgang_current}, read through Trino's Iceberg connector on the JDBC
 * catalog, equals MeterStore's answer in totals and per balancing day — with a partition above W
 * left pending detach (hidden from the parent), which the seam flags and whose rows its
 * parent-based SQL would miss. Runs only with {@code -Pinterop}.
 */
@ExtendWith(PostgresExtension.class)
class TrinoViewIT {
  private static final String VIEW = "meterstore.meterstore.lastgang_current";

  @TempDir Path warehouse;
  @TempDir Path trinoBase;

  @Test
  void theViewByNameEqualsMeterStoreWhileAPartitionIsHiddenFromTheParent(TestDatabase db)
      throws Exception {
    try (LocalTrino trino = LocalTrino.launch(db, warehouse, trinoBase);
        InteropStore store = InteropStore.build(db, warehouse)) {
      List<String> expected = store.totals("\"" + InteropStore.TABLE + "\"");
      Map<LocalDate, String> expectedDaily = store.dailyTotals("TRUE");
      store.leaveFirstPartitionAboveWPendingDetach();
      InteropStore.Seam seam = store.seam();
      assertThat(seam.servable()).as("the seam flags the hidden partition").isFalse();
      String seamSql = seam.trinoSql();

      trino.awaitActive();
      try (Connection client = trino.connect();
          Statement s = client.createStatement()) {
        assertThat(InteropStore.totals(client, "SELECT COUNT(*), SUM(\"value\") FROM " + VIEW))
            .isEqualTo(expected);
        Map<LocalDate, String> daily = new TreeMap<>();
        try (ResultSet rs =
            s.executeQuery(
                "SELECT \"balancing_day\", SUM(\"value\") FROM "
                    + VIEW
                    + " GROUP BY \"balancing_day\"")) {
          while (rs.next()) {
            daily.put(rs.getDate(1).toLocalDate(), InteropStore.plain(rs.getBigDecimal(2)));
          }
        }
        assertThat(daily).containsExactlyEntriesOf(expectedDaily);
        assertThat(
                Long.parseLong(
                    InteropStore.totals(
                            client, "SELECT COUNT(*), SUM(\"value\") FROM (" + seamSql + ") f")
                        .get(0)))
            .as("what the flagged seam SQL finds: the hidden partition's readings are missing")
            .isLessThan(Long.parseLong(expected.get(0)));
      }
    }
  }
}
