package org.meterstore.cli.command;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.MeterCatalog;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code meterstore snapshots}: the cold tier's snapshots with their watermarks. */
@Command(
    name = "snapshots",
    description = {
      "List the Iceberg snapshots with their watermarks.",
      "",
      "List the Iceberg snapshots of every table (or --table) in commit order, with the watermark",
      "each carries, its row total and its tags."
    })
final class SnapshotsCommand extends Verb {
  @Mixin NowOption now;

  @Option(names = "--table", paramLabel = "<table>", description = "Only this table.")
  String table;

  @Override
  public Integer call() throws SQLException {
    Instant at = now.get();
    Rows all;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      if (table != null) {
        Deployments.table(catalog, table);
      }
      catalog.refreshSystemTables(at);
      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT * FROM \"system\".\"snapshots\" ORDER BY \"table\", sequence_number")) {
        all = ResultSets.read(rs, Integer.MAX_VALUE);
      }
    }
    List<List<Object>> kept = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      if (table == null || table.equals(all.get(i, "table"))) {
        kept.add(all.rows().get(i));
      }
    }
    root.print(new Document().put("snapshots", new Rows(all.columns(), kept)));
    return ExitCode.OK;
  }
}
