package org.meterstore.cli.command;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.meterstore.EmbeddedDatabase;
import org.meterstore.MeterCatalog;
import org.meterstore.api.reading.Tier;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code meterstore status}: {@code system.tables} at {@code now}; exit 1 when any table is
 * unhealthy, naming stranded rows or an exhausted runway per table. On the embedded default it also
 * says how another process reaches that PostgreSQL (URL, user, password file; never the password).
 */
@Command(
    name = "status",
    description = {
      "Print system.tables; exit 1 when a table is unhealthy.",
      "",
      "Refresh and print system.tables at --now. Exit 1 when a table is unhealthy, naming per",
      "table stranded rows (hot rows below the watermark) or an exhausted partition runway.",
      "On the embedded default, also print its PostgreSQL's JDBC URL, user and password file."
    })
final class StatusCommand extends Verb {
  @Mixin NowOption now;

  @Override
  public Integer call() throws SQLException {
    Instant at = now.get();
    Rows tables;
    Map<String, Set<Tier>> missing;
    Map<String, String> unreachable;
    Optional<EmbeddedDatabase> embedded;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      tables = SystemTables.read(catalog, at);
      missing = SystemTables.missing(catalog);
      unreachable = SystemTables.unreachableStorage(catalog, tables, missing);
      embedded = catalog.embeddedDatabase();
    }
    Rows problems = SystemTables.problems(tables, missing, unreachable);
    boolean healthy = problems.size() == 0;
    Document doc =
        new Document()
            .put("now", at)
            .put("healthy", healthy)
            .put("tables", tables)
            .put("problems", problems);
    embedded.ifPresent(
        e ->
            doc.put(
                "embedded",
                new Document()
                    .put("jdbc_url", e.jdbcUrl())
                    .put("user", e.user())
                    .put("password_file", e.passwordFile().toString())));
    root.print(doc);
    for (int i = 0; i < problems.size(); i++) {
      root.warn(
          "table "
              + problems.get(i, "table")
              + ": "
              + problems.get(i, "problem")
              + ": "
              + problems.get(i, "detail"));
    }
    return healthy ? ExitCode.OK : ExitCode.ERROR;
  }
}
