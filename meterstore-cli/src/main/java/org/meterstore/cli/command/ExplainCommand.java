package org.meterstore.cli.command;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code meterstore explain}: the plan of a statement, showing which tiers it scans. */
@Command(
    name = "explain",
    description = {
      "Print the plan of a SQL statement.",
      "",
      "Print the plan of a read-only SQL statement: which tiers are scanned, which filters are",
      "pushed into PostgreSQL and Iceberg, whether version resolution is elided."
    })
final class ExplainCommand extends Verb {
  @Parameters(index = "0", paramLabel = "<sql>", description = "The statement.")
  String sql;

  @Override
  public Integer call() throws SQLException {
    List<String> plan = new ArrayList<>();
    try (MeterCatalog catalog = Deployments.open(root.configFile());
        Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      while (rs.next()) {
        plan.addAll(rs.getString(1).lines().toList());
      }
    }
    org.meterstore.cli.output.Rows lines = org.meterstore.cli.output.Rows.of("plan");
    for (String line : plan) {
      lines = lines.with(line);
    }
    root.print(
        new Document()
            .putJsonOnly("sql", sql)
            .putJsonOnly("plan", plan)
            .putTableOnly("lines", lines));
    return ExitCode.OK;
  }
}
