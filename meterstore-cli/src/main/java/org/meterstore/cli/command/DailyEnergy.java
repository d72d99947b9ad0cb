package org.meterstore.cli.command;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.demo.DemoMonth;
import org.meterstore.cli.output.Rows;

/**
 * The demo's question over both tiers: energy per balancing day and commodity over the month, with
 * the tier that holds each day's readings (readings with {@code from} below a table's watermark are
 * in Iceberg, the rest in PostgreSQL; a gas day straddling the watermark shows both).
 */
final class DailyEnergy {
  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private DailyEnergy() {}

  /** The statement and its rows. */
  record Answer(String sql, Rows rows) {}

  static Answer query(MeterCatalog catalog, Rows systemTables, YearMonth month)
      throws SQLException {
    String sql =
        sql(
            DemoCommand.watermark(systemTables, DemoMonth.STROM),
            DemoCommand.watermark(systemTables, DemoMonth.GAS),
            month);
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return new Answer(sql, ResultSets.read(rs, Integer.MAX_VALUE));
    }
  }

  /** The statement; the literals are instants and dates the command computed, never user text. */
  static String sql(Instant strom, Instant gas, YearMonth month) {
    return "SELECT balancing_day,"
        + " SUM(CASE WHEN sparte = 'STROM' THEN \"value\" END) AS strom_kwh,"
        + " SUM(CASE WHEN sparte = 'GAS' AND unit = 'KWH' THEN \"value\" END) AS gas_kwh,"
        + " SUM(CASE WHEN sparte = 'GAS' AND unit = 'M3' THEN \"value\" END) AS gas_m3,"
        + " COUNT(*) AS readings,"
        + " CASE WHEN MIN(tier) = MAX(tier) THEN MIN(tier)"
        + " ELSE CAST('iceberg+postgres' AS VARCHAR(16)) END AS tier"
        + " FROM ("
        + branch(DemoMonth.STROM, strom)
        + " UNION ALL "
        + branch(DemoMonth.GAS, gas)
        + ") AS t"
        + " WHERE balancing_day BETWEEN DATE '"
        + month.atDay(1)
        + "' AND DATE '"
        + month.atEndOfMonth()
        + "' GROUP BY balancing_day ORDER BY balancing_day";
  }

  private static String branch(String table, Instant watermark) {
    String w = LITERAL.format(LocalDateTime.ofInstant(watermark, ZoneOffset.UTC));
    return "SELECT balancing_day, sparte, unit, \"value\","
        + " CASE WHEN \"from\" < TIMESTAMP '"
        + w
        + "' THEN CAST('iceberg' AS VARCHAR(16)) ELSE CAST('postgres' AS VARCHAR(16)) END"
        + " AS tier FROM \""
        + table
        + "\"";
  }
}
