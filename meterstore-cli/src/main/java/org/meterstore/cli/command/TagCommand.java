package org.meterstore.cli.command;

import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cold.snapshot.SnapshotTag;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code meterstore tag}: pins a cold snapshot under a name (a settlement pin) that expiry keeps
 * and the {@code as_of_tag} read mode reads.
 */
@Command(
    name = "tag",
    description = {
      "Pin a cold snapshot under a tag name (a settlement pin).",
      "",
      "Tag the current Iceberg snapshot of --table (or --snapshot) with --name. Snapshot expiry",
      "keeps a tagged snapshot until it is untagged; connect with meterstore.mode=as_of_tag and",
      "meterstore.tag=<name> to read the table exactly as it was then. An existing tag is refused:",
      "untag it first to move it."
    })
final class TagCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(
      names = "--name",
      required = true,
      paramLabel = "<tag>",
      description = "The tag: letters, digits, '.', '_', '-', e.g. settlement-2026-10.")
  String name;

  @Option(
      names = "--snapshot",
      paramLabel = "<id>",
      description = "The snapshot id to tag (see meterstore snapshots; default: the current one).")
  Long snapshot;

  @Override
  public Integer call() {
    SnapshotTag tag;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      Deployments.table(catalog, table);
      tag =
          snapshot == null
              ? catalog.table(table).tag(name)
              : catalog.table(table).tag(name, snapshot);
    }
    root.print(TagsCommand.describe(new Document().put("table", table), tag));
    return ExitCode.OK;
  }
}
