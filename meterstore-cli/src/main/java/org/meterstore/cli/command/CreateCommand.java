package org.meterstore.cli.command;

import java.time.Instant;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code meterstore create}: creates every declared table in both tiers (idempotent). */
@Command(
    name = "create",
    description = {
      "Create every declared table in both tiers (idempotent).",
      "",
      "Create every declared table in both tiers where it does not exist yet, and pre-create the",
      "hot partitions of partition_headroom from --now. Idempotent."
    })
final class CreateCommand extends Verb {
  @Mixin NowOption now;

  @Override
  public Integer call() {
    Instant at = now.get();
    Rows tables = Rows.of("table", "time_model", "archival_step", "settlement_lag");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      catalog.createTables(at);
      for (TableDefinition t : catalog.tables()) {
        tables =
            tables.with(
                t.name(),
                t.timeModel().name().toLowerCase(java.util.Locale.ROOT),
                t.policy().archivalStep(),
                t.policy().settlementLag());
      }
    }
    root.print(new Document().put("now", at).put("created", tables));
    return ExitCode.OK;
  }
}
