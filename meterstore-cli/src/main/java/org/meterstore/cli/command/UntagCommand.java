package org.meterstore.cli.command;

import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code meterstore untag}: removes a tag; its snapshot is then expired like any other. */
@Command(
    name = "untag",
    description = {
      "Remove a tag.",
      "",
      "Remove tag --name of --table. The snapshot it pinned stays until snapshot expiry finds it",
      "past the table's snapshot_retention; a missing tag is an error."
    })
final class UntagCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(names = "--name", required = true, paramLabel = "<tag>", description = "The tag.")
  String name;

  @Override
  public Integer call() {
    long snapshotId;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      Deployments.table(catalog, table);
      snapshotId = catalog.table(table).untag(name);
    }
    root.print(
        new Document()
            .put("table", table)
            .put("tag", name)
            .put("snapshot_id", snapshotId)
            .put("removed", true));
    return ExitCode.OK;
  }
}
