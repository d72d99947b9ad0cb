package org.meterstore.cli.command;

import java.time.Instant;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore reassert-watermark}: re-stamps W onto the current cold snapshot where it
 * carries none (after a foreign commit such as a Spark compaction); never moves W.
 */
@Command(
    name = "reassert-watermark",
    description = {
      "Re-stamp the watermark onto the current Iceberg snapshot.",
      "",
      "Re-stamp the watermark onto the current Iceberg snapshot of each table (or --table) when a",
      "foreign commit left it without one. Never moves the watermark; a no-op when it is there."
    })
final class ReassertWatermarkCommand extends Verb {
  @Mixin NowOption now;

  @Option(names = "--table", paramLabel = "<table>", description = "Only this table.")
  String table;

  @Override
  public Integer call() {
    Instant at = now.get();
    Rows rows = Rows.of("table", "restamped", "watermark");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      List<TableDefinition> tables =
          table == null ? catalog.tables() : List.of(Deployments.table(catalog, table));
      for (TableDefinition t : tables) {
        boolean restamped = catalog.table(t.name()).reassertWatermark(at);
        rows = rows.with(t.name(), restamped, catalog.table(t.name()).watermark());
      }
    }
    root.print(new Document().put("now", at).put("tables", rows));
    return ExitCode.OK;
  }
}
