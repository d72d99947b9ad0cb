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

  /** The widest line of the table format; longer plan lines are folded (JSON keeps them whole). */
  static final int WIDTH = 120;

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
      for (String part : fold(line, WIDTH)) {
        lines = lines.with(part);
      }
    }
    root.print(
        new Document()
            .putJsonOnly("sql", sql)
            .putJsonOnly("plan", plan)
            .putTableOnly("lines", lines));
    return ExitCode.OK;
  }

  /**
   * {@code line} folded into lines of at most {@code width} characters, broken after a comma or at
   * a space where there is one, each continuation indented four more than the line itself.
   */
  static List<String> fold(String line, int width) {
    List<String> out = new ArrayList<>();
    int depth = line.length() - line.stripLeading().length();
    String indent = " ".repeat(Math.min(depth + 4, width / 2));
    String rest = line;
    String prefix = "";
    while (prefix.length() + rest.length() > width) {
      int room = width - prefix.length();
      int cut = Math.max(rest.lastIndexOf(", ", room - 1) + 1, rest.lastIndexOf(' ', room));
      if (cut < room / 2) {
        cut = room; // no break in the second half: cut the word
      }
      out.add((prefix + rest.substring(0, cut)).stripTrailing());
      rest = rest.substring(cut).stripLeading();
      prefix = indent;
    }
    out.add(prefix + rest);
    return out;
  }
}
