package org.meterstore.cli.command;

import java.time.Instant;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.Progress;
import org.meterstore.maintenance.MaintenanceOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore archive}: archives the due windows of every table now, catching up in cycles of
 * at most eight windows per table until nothing is due or {@code --max-windows} is reached.
 */
@Command(
    name = "archive",
    description = {
      "Archive the due windows to Iceberg, catching up.",
      "",
      "Archive every due window of every table to Iceberg at --now, in cycles of at most 8 windows",
      "per table, until nothing is due or --max-windows per table are archived. Exit 75 when a",
      "table was deferred by a lock (retry later), 1 when one failed or is quarantined."
    })
final class ArchiveCommand extends Verb {
  private static final int WINDOWS_PER_CYCLE = 8;

  @Mixin NowOption now;

  @Option(
      names = "--max-windows",
      paramLabel = "<n>",
      description = "Archive at most this many windows per table (default: all that are due).")
  Integer maxWindows;

  @Override
  public Integer call() {
    Instant at = now.get();
    if (maxWindows != null && maxWindows < 1) {
      throw org.meterstore.api.MeterStoreException.invalid(
          "--max-windows", maxWindows, "at least 1");
    }
    int budget = maxWindows == null ? Integer.MAX_VALUE : maxWindows;
    Outcomes outcomes = new Outcomes();
    int archived = 0;
    try (MeterCatalog catalog = Deployments.open(root.configFile());
        Progress progress = Progress.of(root.io(), "archiving")) {
      int done = 0;
      while (done < budget) {
        int cycle = Math.min(WINDOWS_PER_CYCLE, budget - done);
        MaintenanceOutcome outcome = catalog.archive(at, cycle);
        outcomes.add(outcome);
        archived += outcome.windowsArchived();
        progress.update(archived + " windows");
        if (!Outcomes.archivedAny(outcome)) {
          break;
        }
        done += maxWindowsArchivedPerTable(outcome);
      }
    }
    root.print(
        new Document()
            .put("now", at)
            .put("windows_archived", archived)
            .put("tables", outcomes.rows()));
    outcomes.warnings().forEach(root::warn);
    return outcomes.exitCode();
  }

  private static int maxWindowsArchivedPerTable(MaintenanceOutcome outcome) {
    return outcome.rows().stream().mapToInt(r -> r.counts().windowsArchived()).max().orElse(0);
  }
}
