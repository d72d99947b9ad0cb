package org.meterstore.cli.command;

import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code meterstore unpin}: removes a state pin before it lapses. */
@Command(
    name = "unpin",
    description = {
      "Remove a state pin (see meterstore pins).",
      "",
      "Archival of the table resumes with the next maintenance cycle once no pin holds it. Removing",
      "a pin that lapsed or was removed already is not an error."
    })
final class UnpinCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(names = "--id", required = true, paramLabel = "<id>", description = "The pin's id.")
  long id;

  @Override
  public Integer call() {
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      Deployments.table(catalog, table);
      catalog.table(table).pins().release(id);
    }
    root.print(new Document().put("table", table).put("unpinned", id));
    return ExitCode.OK;
  }
}
