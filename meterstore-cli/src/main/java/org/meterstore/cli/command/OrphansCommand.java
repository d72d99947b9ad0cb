package org.meterstore.cli.command;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.OrphanFiles;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.cold.orphan.OrphanReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore orphans}: lists the cold tier's orphan files (nothing references them), and
 * deletes them with {@code --delete}.
 */
@Command(
    name = "orphans",
    description = {
      "List (or delete) files of the Iceberg tables that nothing references.",
      "",
      "List the files under each table's location (or --table's) that no retained snapshot or",
      "metadata file references and that were last modified more than --min-age before --now:",
      "files of commits that never landed, debris of foreign tools. Deletes nothing unless",
      "--delete is given; read the list first."
    })
final class OrphansCommand extends Verb {
  @Mixin NowOption now;

  @Option(names = "--table", paramLabel = "<table>", description = "Only this table.")
  String table;

  @Option(
      names = "--min-age",
      paramLabel = "<duration>",
      description =
          "Only files last modified before --now minus this (default: ${DEFAULT-VALUE}; at least"
              + " 1h with --delete).")
  Duration minAge = Duration.ofDays(3);

  @Option(names = "--delete", description = "Delete the files listed.")
  boolean delete;

  @Override
  public Integer call() {
    Instant at = now.get();
    Rows tables = Rows.of("table", "orphans", "deleted", "files_listed", "files_referenced");
    Rows files = Rows.of("table", "file", "deleted");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      List<TableDefinition> selected =
          table == null ? catalog.tables() : List.of(Deployments.table(catalog, table));
      for (TableDefinition t : selected) {
        OrphanFiles orphans = catalog.table(t.name()).orphanFiles();
        OrphanReport report = delete ? orphans.remove(at, minAge) : orphans.find(at, minAge);
        tables =
            tables.with(
                t.name(),
                report.orphans().size(),
                report.deleted().size(),
                report.scannedFiles(),
                report.referencedFiles());
        for (String file : report.orphans()) {
          files = files.with(t.name(), file, report.deleted().contains(file));
        }
      }
    }
    root.print(
        new Document()
            .put("now", at)
            .put("older_than", at.minus(minAge))
            .put("dry_run", !delete)
            .put("tables", tables)
            .put("files", files));
    return ExitCode.OK;
  }
}
