package org.meterstore.cli.command;

import java.time.Instant;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.hot.pin.StatePin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code meterstore pins}: the live state pins of every table, or of one. */
@Command(
    name = "pins",
    description = {
      "List the live state pins (see meterstore pin).",
      "",
      "List the pins of every table (or --table) that have not lapsed at --now: id, holder, the",
      "pinned snapshot and watermark, when each was taken and when it lapses."
    })
final class PinsCommand extends Verb {
  @Option(names = "--table", paramLabel = "<table>", description = "Only this table.")
  String table;

  @Mixin NowOption now;

  @Override
  public Integer call() {
    Instant at = now.get();
    Rows rows =
        Rows.of("table", "id", "holder", "snapshot_id", "watermark", "created_at", "expires_at");
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      List<TableDefinition> tables =
          table == null ? catalog.tables() : List.of(Deployments.table(catalog, table));
      for (TableDefinition t : tables) {
        for (StatePin pin : catalog.table(t.name()).pins().list(at)) {
          rows =
              rows.with(
                  t.name(),
                  pin.id(),
                  pin.holder(),
                  pin.snapshotId(),
                  pin.watermark(),
                  pin.createdAt(),
                  pin.expiresAt());
        }
      }
    }
    root.print(new Document().put("pins", rows));
    return ExitCode.OK;
  }

  /** {@code document} with the fields of one pin, as {@code pin} prints it. */
  static Document describe(Document document, StatePin pin) {
    return document
        .put("table", pin.table())
        .put("id", pin.id())
        .put("holder", pin.holder())
        .put("snapshot_id", pin.snapshotId())
        .put("watermark", pin.watermark())
        .put("created_at", pin.createdAt())
        .put("expires_at", pin.expiresAt());
  }
}
