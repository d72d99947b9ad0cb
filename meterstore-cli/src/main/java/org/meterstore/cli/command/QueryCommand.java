package org.meterstore.cli.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.meterstore.MeterCatalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code meterstore query}: runs one read-only SQL statement over both tiers. */
@Command(
    name = "query",
    description = {
      "Run one read-only SQL statement over both tiers.",
      "",
      "Run one read-only SQL statement over both tiers and print its rows. Pass - to read the",
      "statement from standard input. Identifiers are case-sensitive; quote reserved words such",
      "as \"from\", \"to\" and \"value\". The system relations are refreshed at --now first."
    })
final class QueryCommand extends Verb {
  @Parameters(index = "0", paramLabel = "<sql>", description = "The statement, or - for stdin.")
  String sql;

  @Option(
      names = "--max-rows",
      paramLabel = "<n>",
      description = "Print at most this many rows (default: ${DEFAULT-VALUE}).")
  int maxRows = 10_000;

  @Mixin NowOption now;

  @Override
  public Integer call() throws SQLException {
    String statement = statement();
    if (maxRows < 1) {
      throw MeterStoreException.invalid("--max-rows", maxRows, "at least 1");
    }
    Rows rows;
    java.util.List<String> types;
    boolean truncated;
    try (MeterCatalog catalog = Deployments.open(root.configFile())) {
      if (statement.toLowerCase(Locale.ROOT).contains("system")) {
        catalog.refreshSystemTables(now.get());
      }
      try (Connection c = catalog.connection();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery(statement)) {
        types = ResultSets.types(rs.getMetaData());
        rows = ResultSets.read(rs, maxRows);
        truncated = rs.next();
      }
    }
    Document doc =
        new Document().putJsonOnly("columns", columns(rows, types)).putMain("rows", rows);
    doc.put("row_count", rows.size());
    if (truncated) {
      doc.put("truncated", true);
      root.warn("output truncated at " + maxRows + " rows (--max-rows)");
    }
    root.print(doc);
    return ExitCode.OK;
  }

  private String statement() {
    if (!"-".equals(sql)) {
      return sql;
    }
    try {
      String text = new String(root.io().in().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (text.endsWith(";")) {
        text = text.substring(0, text.length() - 1);
      }
      if (text.isBlank()) {
        throw MeterStoreException.invalid("sql", "", "a statement on standard input");
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the statement from standard input", e);
    }
  }

  private static Rows columns(Rows rows, java.util.List<String> types) {
    Rows out = Rows.of("name", "type");
    for (int i = 0; i < rows.columns().size(); i++) {
      out = out.with(rows.columns().get(i), types.get(i));
    }
    return out;
  }
}
