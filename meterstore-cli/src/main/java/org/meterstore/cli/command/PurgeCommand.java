package org.meterstore.cli.command;

import org.meterstore.MeterCatalog;
import org.meterstore.PurgeResult;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Progress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code meterstore purge}: destroys one table in both tiers. The only operation that deletes
 * readings; refused unless {@code --confirm} repeats the table name.
 */
@Command(
    name = "purge",
    description = {
      "DESTROY a table in both tiers (needs --confirm).",
      "",
      "DESTROY a table: its PostgreSQL parent with every partition and MeterStore's bookkeeping,",
      "and its Iceberg table with every data and metadata file. Refused (nothing touched) unless",
      "--confirm repeats the table name exactly. Run it again to finish an interrupted purge."
    })
final class PurgeCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(
      names = "--confirm",
      required = true,
      paramLabel = "<table>",
      description = "The table name again, to confirm.")
  String confirm;

  @Override
  public Integer call() {
    PurgeResult result;
    try (MeterCatalog catalog = Deployments.open(root.configFile());
        Progress progress = Progress.of(root.io(), "purging " + table)) {
      progress.update("dropping the hot tables and the Iceberg table with its files");
      result = catalog.table(table).purge(confirm);
      progress.update("done");
    }
    root.print(
        new Document()
            .put("table", result.table())
            .put("hot_relations_dropped", result.hotRelationsDropped().size())
            .put("cold_table_dropped", result.coldTableDropped())
            .put("relations", result.hotRelationsDropped()));
    return ExitCode.OK;
  }
}
