package org.meterstore.cli.command;

import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.cold.snapshot.SnapshotTag;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code meterstore tags}: the settlement pins of every table, or of one. */
@Command(
    name = "tags",
    description = {
      "List the tags (settlement pins).",
      "",
      "List the tags of every table (or --table), by table and name, with the snapshot each pins,",
      "its watermark and the instant MeterStore committed it (archived_at)."
    })
final class TagsCommand extends Verb {
  @Option(names = "--table", paramLabel = "<table>", description = "Only this table.")
  String table;

  @Override
  public Integer call() {
    Rows rows =
        Rows.of(
            "table",
            "tag",
            "snapshot_id",
            "sequence_number",
            "watermark",
            "archived_at",
            "committed_at",
            "rows");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      List<TableDefinition> tables =
          table == null ? catalog.tables() : List.of(Deployments.table(catalog, table));
      for (TableDefinition t : tables) {
        for (SnapshotTag tag : catalog.table(t.name()).tags()) {
          rows =
              rows.with(
                  t.name(),
                  tag.name(),
                  tag.snapshotId(),
                  tag.sequenceNumber(),
                  tag.watermark(),
                  tag.archivedAt(),
                  tag.committedAt(),
                  tag.totalRows());
        }
      }
    }
    root.print(new Document().put("tags", rows));
    return ExitCode.OK;
  }

  /** {@code document} with the fields of one tag, as {@code tag} prints it. */
  static Document describe(Document document, SnapshotTag tag) {
    return document
        .put("tag", tag.name())
        .put("snapshot_id", tag.snapshotId())
        .put("watermark", tag.watermark())
        .put("archived_at", tag.archivedAt())
        .put("committed_at", tag.committedAt())
        .put("rows", tag.totalRows());
  }
}
