package org.meterstore.examples;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.config.MeterStoreConfig;

/**
 * The embedded default in Java: no PostgreSQL to install. Opens a store under a data directory,
 * creates a table, writes two days of readings (one of them the spring DST day), archives the first
 * to Iceberg and sums both days with one SQL statement over both tiers.
 *
 * <p>Run: {@code mvn -q -pl examples -am package -DskipTests} then see examples/README.md.
 */
public final class EmbeddedQuickstart {
  private static final String CONFIG =
      """
      data_dir = "%s"

      [[tables]]
      name = "lastgang"
      settlement_lag = "1d"
      """;

  private EmbeddedQuickstart() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Files.createTempDirectory("meterstore-quickstart");
    MeterStoreConfig config =
        MeterStoreConfig.parse(
            CONFIG.formatted(dataDir.toString().replace('\\', '/')), dataDir, Map.of());
    try (MeterCatalog catalog = MeterStores.open(config, OpenTelemetry.noop())) {
      Instant now = Instant.parse("2026-03-31T08:00:00Z");
      catalog.createTables(Instant.parse("2026-03-28T00:00:00Z"));
      for (LocalDate day = LocalDate.of(2026, 3, 29);
          day.getDayOfMonth() <= 30;
          day = day.plusDays(1)) {
        WriteResult r =
            catalog.table("lastgang").append(Readings.day(day, "20260331060000", null), now);
        System.out.printf("%s: %d readings stored%n", day, r.stored());
      }
      // one maintenance cycle: windows that ended a settlement lag ago move to Iceberg
      System.out.println(catalog.archive(now, 8).rows());
      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT balancing_day, COUNT(*) AS quarter_hours, SUM(\"value\") AS kwh"
                      + " FROM lastgang GROUP BY balancing_day ORDER BY balancing_day")) {
        while (rs.next()) {
          System.out.printf(
              "%s  %3d quarter-hours  %s kWh%n",
              rs.getString(1), rs.getLong(2), rs.getBigDecimal(3).toPlainString());
        }
      }
    }
  }
}
