package org.meterstore.cli.command;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.meterstore.MeterCatalog;
import org.meterstore.api.reading.Tier;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code meterstore status}: {@code system.tables} at {@code now}; exit 1 when any table is
 * unhealthy, naming stranded rows or an exhausted runway per table.
 */
@Command(
    name = "status",
    description = {
      "Print system.tables; exit 1 when a table is unhealthy.",
      "",
      "Refresh and print system.tables at --now. Exit 1 when a table is unhealthy, naming per",
      "table stranded rows (hot rows below the watermark) or an exhausted partition runway."
    })
final class StatusCommand extends Verb {
  @Mixin NowOption now;

  @Override
  public Integer call() throws SQLException {
    Instant at = now.get();
    Rows tables;
    Map<String, Set<Tier>> missing;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      tables = SystemTables.read(catalog, at);
      missing = SystemTables.missing(catalog);
    }
    Rows problems = SystemTables.problems(tables, missing);
    boolean healthy = problems.size() == 0;
    root.print(
        new Document()
            .put("now", at)
            .put("healthy", healthy)
            .put("tables", tables)
            .put("problems", problems));
    for (int i = 0; i < problems.size(); i++) {
      root.warn(
          "table "
              + problems.get(i, "table")
              + ": "
              + problems.get(i, "problem")
              + ": "
              + problems.get(i, "detail"));
    }
    return healthy ? ExitCode.OK : ExitCode.ERROR;
  }
}
