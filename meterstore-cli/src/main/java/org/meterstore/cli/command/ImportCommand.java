package org.meterstore.cli.command;

import java.nio.file.Path;
import java.time.Instant;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.Progress;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code meterstore import --table T FILE}: bulk-imports settled history from a CSV or Parquet file
 * into the cold tier ({@code MeterTable.importHistory}, docs/import.md).
 */
@Command(
    name = "import",
    description = {
      "Import settled history from a CSV or Parquet file into the cold tier.",
      "",
      "Reads FILE (.csv: a header of storage-model column names; .parquet: columns of those names,",
      "typed as the cold tier writes them or as strings; docs/import.md), checks every record,",
      "refuses a range that is not settled at --now or that holds hot rows (nothing written), then",
      "commits it in chunks. Re-running it is safe: what is stored is reported duplicate."
    })
final class ImportCommand extends Verb {
  @Mixin NowOption now;

  @Option(
      names = "--table",
      required = true,
      paramLabel = "<table>",
      description = "The table to import into.")
  String table;

  @Option(
      names = "--chunk-rows",
      paramLabel = "<n>",
      description = "Readings per commit (default 100000).")
  Integer chunkRows;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .csv or .parquet file.")
  Path file;

  @Override
  public Integer call() {
    Instant at = now.get();
    ImportSource source = ImportSource.of(file); // an unknown extension fails before any connection
    ImportResult result;
    try (MeterCatalog catalog = Deployments.open(root.configFile());
        Progress progress = Progress.of(root.io(), "importing")) {
      ImportOptions options =
          ImportOptions.DEFAULTS.withProgress(
              (done, total) -> progress.update(done + " / " + total + " readings"));
      if (chunkRows != null) {
        options = options.withChunkRows(chunkRows);
      }
      String name = Deployments.table(catalog, table).name();
      result = catalog.table(name).importHistory(source, at, options);
    }
    root.print(
        new Document()
            .put("now", at)
            .put("table", result.table())
            .put("file", file.toString())
            .put("rows", result.rows())
            .put("inserted", result.inserted())
            .put("superseded", result.superseded())
            .put("shadowed", result.shadowed())
            .put("duplicate", result.duplicate())
            .put("chunks", result.chunks())
            .put("commits", result.commits())
            .put("range_from", result.rangeFrom())
            .put("range_to", result.rangeTo())
            .put("watermark_before", result.watermarkBefore())
            .put("watermark_after", result.watermarkAfter()));
    return picocli.CommandLine.ExitCode.OK;
  }
}
