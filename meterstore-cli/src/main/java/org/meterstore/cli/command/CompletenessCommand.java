package org.meterstore.cli.command;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import org.meterstore.MeterCatalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code meterstore completeness}: expected vs delivered intervals per series and balancing day,
 * exact across DST, over both tiers.
 */
@Command(
    name = "completeness",
    description = {
      "Expected vs delivered intervals per series and day.",
      "",
      "Expected vs delivered intervals per series (malo_id, obis_code, sparte, resolution) and",
      "balancing day, exact across DST. Prints a count per day and status, and the series-days that",
      "are not COMPLETE (all of them with --all)."
    })
final class CompletenessCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "<day>",
      description = "First balancing day (Europe/Berlin), e.g. 2026-10-01.")
  LocalDate from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "<day>",
      description = "Last balancing day, inclusive.")
  LocalDate to;

  @Option(names = "--all", description = "List COMPLETE series-days too.")
  boolean all;

  @Option(
      names = "--max-rows",
      paramLabel = "<n>",
      description = "List at most this many series-days (default: ${DEFAULT-VALUE}).")
  int maxRows = 1_000;

  @Override
  public Integer call() throws SQLException {
    if (to.isBefore(from)) {
      throw MeterStoreException.invalid("--to", to, "on or after --from " + from);
    }
    Rows summary;
    Rows series;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      TableDefinition def = Deployments.table(catalog, table);
      // The table name is a declared (validated) identifier and the days are parsed dates, so the
      // literals below carry no user text.
      String source = "TABLE(completeness('" + def.name() + "', '" + from + "', '" + to + "'))";
      try (Connection c = catalog.connection();
          Statement s = c.createStatement()) {
        try (ResultSet rs =
            s.executeQuery(
                "SELECT status, COUNT(*) AS series_days, SUM(expected) AS expected,"
                    + " SUM(actual) AS actual, SUM(missing) AS missing FROM "
                    + source
                    + " GROUP BY status ORDER BY status")) {
          summary = ResultSets.read(rs, Integer.MAX_VALUE);
        }
        String where = all ? "" : " WHERE status <> 'COMPLETE'";
        try (ResultSet rs =
            s.executeQuery(
                "SELECT balancing_day, malo_id, obis_code, sparte, resolution, expected, actual,"
                    + " missing, status FROM "
                    + source
                    + where
                    + " ORDER BY balancing_day, malo_id, obis_code")) {
          series = ResultSets.read(rs, maxRows);
        }
      }
    }
    boolean complete = true;
    for (int i = 0; i < summary.size(); i++) {
      complete &= "COMPLETE".equals(summary.get(i, "status"));
    }
    root.print(
        new Document()
            .put("table", table)
            .put("from", from)
            .put("to", to)
            .put("complete", complete)
            .put("summary", summary)
            .put("series_days", series));
    return ExitCode.OK;
  }
}
