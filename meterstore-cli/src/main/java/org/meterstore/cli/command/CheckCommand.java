package org.meterstore.cli.command;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Rows;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.config.MeterStoreConfig;
import picocli.CommandLine.Command;

/**
 * {@code meterstore check}: parses the configuration, reaches both tiers and checks every declared
 * table without writing: the hot parent exists, the cold table exists and its schema is compatible.
 */
@Command(
    name = "check",
    description = {
      "Check the configuration, both tiers and every table; writes nothing.",
      "",
      "Parse the configuration, reach both tiers and check every table (hot parent present, cold",
      "table present with a compatible schema). Writes nothing. Exit 1 when anything is missing."
    })
final class CheckCommand extends Verb {
  @Override
  public Integer call() throws SQLException {
    MeterStoreConfig config = Deployments.load(root.configFile());
    Rows tables = Rows.of("table", "hot", "cold", "schema");
    List<String> problems = new ArrayList<>();
    try (MeterCatalog catalog =
        MeterStores.open(config, io.opentelemetry.api.OpenTelemetry.noop())) {
      for (TableDefinition t : catalog.tables()) {
        Set<Tier> missing = catalog.table(t.name()).missingTiers();
        boolean hot = !missing.contains(Tier.HOT);
        boolean cold = !missing.contains(Tier.COLD);
        String schema = "-";
        if (cold) {
          DriftReport drift = catalog.table(t.name()).checkDrift();
          schema =
              drift.isCompatible()
                  ? "compatible"
                  : drift.verdict().toString().toLowerCase(java.util.Locale.ROOT);
          if (!drift.isCompatible()) {
            problems.add(
                t.name() + ": cold schema " + schema + ": " + String.join("; ", drift.reasons()));
          }
        }
        if (!hot || !cold) {
          problems.add(
              t.name()
                  + ": missing in the "
                  + (hot ? "cold" : cold ? "hot" : "hot and cold")
                  + " tier");
        }
        tables =
            tables.with(
                t.name(), hot ? "present" : "missing", cold ? "present" : "missing", schema);
      }
    }
    Document doc =
        new Document()
            .put("config", root.configFile().toString())
            .put("data_dir", config.hot().embedded() ? config.dataDir().toString() : null)
            .put("hot", config.hot().embedded() ? "embedded" : "reachable")
            .put("cold", "reachable")
            .put("tables", tables)
            .put("ok", problems.isEmpty());
    root.print(doc);
    if (!problems.isEmpty()) {
      for (String p : problems) {
        root.warn(p);
      }
      if (problems.stream().anyMatch(p -> p.contains("missing"))) {
        root.warn("run 'meterstore create' to create missing tables");
      }
      return ExitCode.ERROR;
    }
    return ExitCode.OK;
  }
}
