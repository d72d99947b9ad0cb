package org.meterstore.cli.command;

import java.time.Duration;
import java.time.Instant;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.hot.pin.StatePin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore pin}: pins a table's current state (S, W) for a job outside MeterStore, so
 * archival waits and expiry keeps S until it is unpinned or lapses.
 */
@Command(
    name = "pin",
    description = {
      "Pin a table's current state for a Spark or Trino job.",
      "",
      "Pin the current cold snapshot S and watermark W of --table for --holder until --ttl has",
      "passed or the pin is removed (meterstore unpin). While it lives, archival archives no window",
      "of the table (its maintenance row says HELD) and snapshot expiry keeps S, so a job that",
      "reads S and the hot tier from W up gets the same readings however long it runs. Refused",
      "(nothing pinned) while archival holds the table (exit 75: try again) or when a partition",
      "above W is detached or pending detach (run maintenance first)."
    })
final class PinCommand extends Verb {
  @Option(names = "--table", required = true, paramLabel = "<table>", description = "The table.")
  String table;

  @Option(
      names = "--ttl",
      required = true,
      paramLabel = "<duration>",
      description = "How long the pin holds (6h, 2d, PT6H); at most 7 days.")
  Duration ttl;

  @Option(
      names = "--holder",
      required = true,
      paramLabel = "<label>",
      description = "Who holds it, for operators: the job's name, say.")
  String holder;

  @Mixin NowOption now;

  @Override
  public Integer call() {
    Instant at = now.get();
    StatePin pin;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      Deployments.table(catalog, table);
      pin = catalog.table(table).pins().pin(ttl, holder, at);
    }
    root.print(PinsCommand.describe(new Document(), pin));
    return ExitCode.OK;
  }
}
