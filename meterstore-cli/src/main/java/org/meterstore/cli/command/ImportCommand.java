package org.meterstore.cli.command;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
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
 * {@code meterstore import --table T FILE...}: bulk-imports settled history from CSV and Parquet
 * files, or directories of them, into the cold tier ({@code MeterTable.importHistory},
 * docs/import.md).
 */
@Command(
    name = "import",
    description = {
      "Import settled history from CSV or Parquet files into the cold tier.",
      "",
      "Reads each FILE in turn as one import (.csv: a header of storage-model column names;",
      ".parquet: columns of those names, typed as the cold tier writes them or as strings;",
      "a directory: its .csv and .parquet files by path name; a quoted glob such as",
      "'exports/2024-*.csv': the files it matches by name; docs/import.md), checks every record,",
      "refuses a range that is not settled at --now or that holds hot rows (nothing written), then",
      "commits it in chunks. Re-running it is safe: what is stored is reported duplicate, so a run",
      "that was interrupted is completed by running it again."
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

  @Option(
      names = "--chunks-held",
      paramLabel = "<n>",
      description =
          "Chunks of readings held in memory at most (default 3): memory is bounded by"
              + " chunk-rows x chunks-held readings, and one chunk more read ahead.")
  Integer chunksHeld;

  @Option(
      names = "--threads",
      paramLabel = "<n>",
      description = "Threads encoding a chunk's Parquet files (default: one per processor).")
  Integer threads;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE",
      description = "A .csv or .parquet file, a directory of them, or a quoted glob.")
  List<String> files;

  @Override
  public Integer call() {
    Instant at = now.get();
    List<Path> paths = ImportFiles.expand(files);
    // an unknown extension or an empty directory fails before any connection
    ImportSource source = ImportSource.files(paths);
    ImportResult result;
    try (MeterCatalog catalog = Deployments.open(root.configFile());
        Progress progress = Progress.of(root.io(), "importing")) {
      ImportRate rate = new ImportRate();
      ImportOptions options =
          ImportOptions.DEFAULTS.withProgress(
              (done, total) -> progress.update(rate.describe(done, total)));
      if (chunkRows != null) {
        options = options.withChunkRows(chunkRows);
      }
      if (chunksHeld != null) {
        options = options.withChunksHeld(chunksHeld);
      }
      if (threads != null) {
        options = options.withEncodingThreads(threads);
      }
      String name = Deployments.table(catalog, table).name();
      result = catalog.table(name).importHistory(source, at, options);
    }
    root.print(
        new Document()
            .put("now", at)
            .put("table", result.table())
            .put("file", source.name())
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
