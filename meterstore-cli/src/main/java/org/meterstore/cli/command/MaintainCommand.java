package org.meterstore.cli.command;

import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.privacy.Retention;
import org.meterstore.cli.output.Document;
import org.meterstore.cli.output.ExitCode;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceHandle;
import org.meterstore.maintenance.MaintenanceOutcome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code meterstore maintain}: the maintenance loop in the foreground until interrupted, or one
 * cycle with {@code --once}.
 */
@Command(
    name = "maintain",
    description = {
      "Run the maintenance loop (one cycle with --once).",
      "",
      "Run the maintenance loop in the foreground until interrupted (Ctrl-C stops it after the",
      "cycle in flight): archive due windows, compact the small cold files of closed months",
      "(unless --no-compact), optionally expire snapshots, check the invariant, pre-create",
      "partitions, optionally remove orphan files, run the retention sweep. --once runs a",
      "single cycle at --now; the loop runs each cycle at the wall clock, so --now is refused",
      "without --once."
    })
final class MaintainCommand extends Verb {
  private static final String ACTOR = "meterstore-cli";

  @Mixin NowOption now;

  @Option(names = "--once", description = "Run one cycle at --now and exit.")
  boolean once;

  @Option(
      names = "--interval",
      paramLabel = "<duration>",
      description = "Pause between cycles, e.g. 30s, 15m, 1h (default: ${DEFAULT-VALUE}).")
  Duration interval = Duration.ofMinutes(15);

  @Option(names = "--expire-snapshots", description = "Expire cold snapshots by table policy.")
  boolean expireSnapshots;

  @Option(
      names = "--compact",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = {
        "Compact cold files (the default; --no-compact leaves them): rewrite the small files of",
        "every month that ends at or before the watermark into files near [cold]",
        "target_file_size (W unchanged, digest re-checked)."
      })
  boolean compact = true;

  @Option(
      names = "--remove-orphans-older-than",
      paramLabel = "<duration>",
      description = {
        "Also delete each table's orphan files (what 'meterstore orphans' lists) last modified",
        "more than <duration> before the cycle, at least 1h; off by default."
      })
  Duration removeOrphansOlderThan;

  @Option(
      names = "--anonymise-after-years",
      paramLabel = "<n>",
      description = {
        "Run the § 60 Abs. 6 MsbG sweep: erase subject mappings whose collection year ended more",
        "than n calendar years ago (default: privacy.anonymise_after_years, 0 = off)."
      })
  Integer anonymiseAfterYears;

  @Option(
      names = "--max-windows",
      paramLabel = "<n>",
      description = "Windows archived per table per cycle (default: ${DEFAULT-VALUE}).")
  int maxWindows = 8;

  @Override
  public Integer call() throws InterruptedException {
    if (!once && now.now != null) {
      // The loop runs every cycle at the wall clock; a --now it ignored once archived 16 windows
      // of live data at the real time. Refuse before anything is opened.
      throw MeterStoreException.invalid(
          "--now",
          now.now,
          "only with --once: the loop runs each cycle at the wall clock; to step a simulated"
              + " clock, run 'meterstore maintain --once --now <instant>' once per step");
    }
    MeterStoreConfig config = Deployments.load(root.configFile());
    int years =
        anonymiseAfterYears != null ? anonymiseAfterYears : config.privacy().anonymiseAfterYears();
    if (years < 0 || years > 100) {
      throw MeterStoreException.invalid("--anonymise-after-years", years, "0 (off) to 100");
    }
    try (MeterCatalog catalog = MeterStores.open(config, OpenTelemetry.noop())) {
      MaintenanceBuilder loop =
          catalog
              .maintenance()
              .interval(interval)
              .maxWindowsPerCycle(maxWindows)
              .expireSnapshots(expireSnapshots)
              .compact(compact);
      if (removeOrphansOlderThan != null) {
        loop.removeOrphanFiles(removeOrphansOlderThan);
      }
      if (years > 0) {
        loop.anonymiseAfter(
            Retention.calendarYears(years), config.privacy().retentionReason(), ACTOR);
      }
      if (once) {
        return printOnce(loop.runOnce(now.get()));
      }
      return runUntilInterrupted(loop, catalog);
    }
  }

  private int printOnce(MaintenanceOutcome outcome) {
    Outcomes outcomes = new Outcomes();
    outcomes.add(outcome);
    root.print(
        new Document()
            .put("now", outcome.now())
            .put("healthy", outcome.healthy())
            .put("windows_archived", outcome.windowsArchived())
            .put("tables", outcomes.rows()));
    outcomes.warnings().forEach(root::warn);
    return outcomes.exitCode();
  }

  private int runUntilInterrupted(MaintenanceBuilder loop, MeterCatalog catalog)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    MaintenanceHandle handle = loop.spawn();
    Thread hook =
        new Thread(
            () -> {
              // on Ctrl-C the JVM halts once the hooks end: stop, report and close here
              handle.close();
              summary(handle);
              catalog.close();
              stopped.countDown();
            },
            "meterstore-maintain-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    root.warn("maintenance loop started (every " + interval + "); Ctrl-C stops it");
    long reported = 0;
    while (stopped.getCount() > 0) {
      long cycles = handle.cyclesCompleted();
      if (cycles > reported) {
        reported = cycles;
        handle.lastOutcome().ifPresent(this::logCycle);
      }
      if (stopped.await(1, java.util.concurrent.TimeUnit.SECONDS)) {
        break;
      }
    }
    return ExitCode.OK;
  }

  private void logCycle(MaintenanceOutcome outcome) {
    Instant at = outcome.now();
    root.warn(
        "cycle at "
            + at
            + ": "
            + outcome.windowsArchived()
            + " windows archived, "
            + (outcome.healthy()
                ? "healthy"
                : "UNHEALTHY: " + outcome.unhealthy().size() + " rows"));
  }

  private void summary(MaintenanceHandle handle) {
    Document doc = new Document().put("cycles", handle.cyclesCompleted());
    handle
        .lastOutcome()
        .ifPresent(
            o -> {
              Outcomes outcomes = new Outcomes();
              outcomes.add(o);
              doc.put("last_cycle", o.now())
                  .put("healthy", o.healthy())
                  .put("tables", outcomes.rows());
            });
    root.print(doc);
  }
}
