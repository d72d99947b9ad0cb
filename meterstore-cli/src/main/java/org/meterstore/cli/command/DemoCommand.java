package org.meterstore.cli.command;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.Comparator;
import java.util.stream.Stream;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.cli.demo.DemoMonth;
import org.meterstore.cli.demo.DemoSimulation;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.cli.output.Progress;
import org.meterstore.cli.output.Rows;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code meterstore demo}: a month of electricity and gas readings on the embedded default, played
 * on a simulated clock with maintenance, then {@code system.tables} and a query over both tiers.
 * Every run starts from a fresh data directory: the demo deletes the one it made before (it leaves
 * a marker file) and refuses to touch a directory it did not make.
 */
@Command(
    name = "demo",
    description = {
      "Run a month of readings through an embedded store and query both tiers.",
      "",
      "Run a month of electricity and gas readings (corrections, redeliveries, the October DST day)",
      "through an embedded store on a simulated clock, with maintenance archiving the settled days",
      "to Iceberg; then print system.tables and daily energy over both tiers. Needs only a JDK.",
      "Each run starts afresh in --data-dir (a directory an earlier demo made is replaced)."
    })
final class DemoCommand extends Verb {
  static final String MARKER = ".meterstore-demo";

  @Option(
      names = "--data-dir",
      paramLabel = "<dir>",
      description = "Where the embedded store lives (default: ${DEFAULT-VALUE}).")
  Path dataDir = Path.of("meterstore-data");

  @Option(
      names = "--locations",
      paramLabel = "<n>",
      description = "Market locations; every fifth measures gas (default: ${DEFAULT-VALUE}).")
  int locations = 200;

  @Option(
      names = "--month",
      paramLabel = "<yyyy-mm>",
      description = "The month to generate (default: ${DEFAULT-VALUE}, with its DST day).")
  YearMonth month = YearMonth.of(2026, 10);

  @Option(
      names = "--settlement-lag",
      paramLabel = "<duration>",
      description = "How long days stay correctable in PostgreSQL (default: ${DEFAULT-VALUE}).")
  Duration settlementLag = Duration.ofDays(10);

  @Option(names = "--seed", paramLabel = "<n>", description = "Random seed (default: 1).")
  long seed = 1;

  @Override
  public Integer call() throws SQLException {
    DemoMonth data = new DemoMonth(locations, month, seed);
    Path config = prepare(dataDir, settlementLag);
    long started = System.nanoTime();
    DemoSimulation.Result result;
    Rows tables;
    DailyEnergy.Answer energy;
    long queryNanos;
    try (MeterCatalog catalog = MeterStores.open(Deployments.load(config), OpenTelemetry.noop())) {
      catalog.createTables(DemoSimulation.stepAfter(month.atDay(1).minusDays(1)));
      try (Progress progress = Progress.of(root.io(), "demo")) {
        result = new DemoSimulation(catalog, data, progress).run();
      }
      long queried = System.nanoTime();
      tables = SystemTables.read(catalog, result.now());
      energy = DailyEnergy.query(catalog, tables, month);
      queryNanos = System.nanoTime() - queried;
    }
    Rows problems = SystemTables.problems(tables, java.util.Map.of());
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    Document timings =
        new Document()
            .put("total_seconds", seconds(elapsed))
            .put("writing_seconds", seconds(result.writing()))
            .put("maintenance_seconds", seconds(result.maintaining()))
            .put("query_seconds", seconds(Duration.ofNanos(queryNanos)));
    root.print(document(config, result, tables, problems, energy, timings));
    for (int i = 0; i < problems.size(); i++) {
      root.warn("table " + problems.get(i, "table") + ": " + problems.get(i, "detail"));
    }
    return problems.size() == 0 ? ExitCode.OK : ExitCode.ERROR;
  }

  private Document document(
      Path config,
      DemoSimulation.Result result,
      Rows tables,
      Rows problems,
      DailyEnergy.Answer energy,
      Document timings) {
    Document written =
        new Document()
            .put("inserted", result.count(WriteOutcome.INSERTED))
            .put("superseded", result.count(WriteOutcome.SUPERSEDED))
            .put("shadowed", result.count(WriteOutcome.SHADOWED))
            .put("duplicate", result.count(WriteOutcome.DUPLICATE))
            .put("late_corrections_to_iceberg", result.lateCorrections());
    return new Document()
        .put("data_dir", dataDir.toAbsolutePath().normalize().toString())
        .put("config", config.toString())
        .put("month", month.toString())
        .put("locations", locations)
        .put("simulated_now", result.now())
        .put("readings", written)
        .put("windows_archived", result.windowsArchived())
        .put("timings", timings)
        .put("tables", tables)
        .put("healthy", problems.size() == 0)
        .put("daily_energy", energy.rows())
        .put("query", energy.sql())
        .put("next", "meterstore --config " + config + " status --now " + result.now());
  }

  private static double seconds(Duration d) {
    return Math.round(d.toMillis() / 100.0) / 10.0;
  }

  /** Empties {@code dir} when an earlier demo made it, writes the marker and the configuration. */
  static Path prepare(Path dir, Duration settlementLag) {
    try {
      if (Files.exists(dir)) {
        boolean empty;
        try (Stream<Path> entries = Files.list(dir)) {
          empty = entries.findAny().isEmpty();
        }
        if (!empty && !Files.exists(dir.resolve(MARKER))) {
          throw new MeterStoreException(
              ErrorKind.INVALID_INPUT,
              "Cannot run the demo in "
                  + dir
                  + ": it is not empty and no earlier demo made it (pass another --data-dir)");
        }
        deleteTree(dir);
      }
      Files.createDirectories(dir);
      Files.writeString(
          dir.resolve(MARKER), "made by 'meterstore demo'; the next demo run replaces it\n");
      Path config = dir.resolve("meterstore.toml");
      Files.writeString(config, ConfigTemplate.render(".", settlementLag), StandardCharsets.UTF_8);
      return config;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot prepare the demo directory " + dir, e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The watermark of {@code table} in {@code system.tables} rows. */
  static Instant watermark(Rows tables, String table) {
    for (int i = 0; i < tables.size(); i++) {
      if (table.equals(tables.get(i, "table"))) {
        return (Instant) tables.get(i, "watermark");
      }
    }
    throw new IllegalStateException("system.tables has no row for " + table);
  }
}
