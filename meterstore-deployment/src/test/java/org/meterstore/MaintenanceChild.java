package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.internal.fault.FaultHook;
import org.meterstore.maintenance.internal.fault.FaultInjection;
import org.meterstore.maintenance.internal.fault.FaultPoint;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.TestDatabase;

/**
 * A separate JVM that runs the maintenance loop against a test database, for the multi-process
 * tests. Arguments are {@code key=value}: {@code url}, {@code user}, {@code password}, {@code
 * warehouse}, {@code tables} (comma-separated names), {@code lagHours}, {@code graceMinutes},
 * {@code chunkRows}, {@code start} (first cycle's now), {@code stepMinutes}, {@code cycles}, and
 * optionally {@code crashAt} (a {@link FaultPoint}: print {@code REACHED} and hang there until
 * killed; the hook is installed around each cycle with {@link FaultInjection#during}), {@code
 * holdMillis} (sleep that long after taking each lease) and {@code goFile} (wait for it to exist
 * before the first cycle, after printing {@code READY}), {@code compact} ({@code true} enables
 * compaction); or, instead of fixed cycles, {@code clockFile}, {@code stopFile} and {@code
 * maxSteps} to follow another process's simulated clock (see {@link #follow}).
 *
 * <p>Prints one {@code ROW <cycle> <table> <status> <windows> <violations>} line per outcome row,
 * then {@code DONE}. Logging goes to stderr.
 */
public final class MaintenanceChild {
  private MaintenanceChild() {}

  /** Runs the child. */
  public static void main(String[] args) throws Exception {
    Map<String, String> a = arguments(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    List<TableDefinition> tables = tables(a);
    try (CatalogFixture d = fixture(a)) {
      MaintenanceBuilder loop = loop(a, d.catalog(tables, OpenTelemetry.noop()));
      FaultHook hook = hook(a, out);
      awaitGo(a, out);
      if (a.containsKey("clockFile")) {
        follow(a, loop, out);
      } else {
        cycles(a, loop, hook, out);
      }
    }
    out.println("DONE");
  }

  /** The {@code key=value} arguments. */
  static Map<String, String> arguments(String[] args) {
    Map<String, String> a = new HashMap<>();
    for (String arg : args) {
      int eq = arg.indexOf('=');
      a.put(arg.substring(0, eq), arg.substring(eq + 1));
    }
    return a;
  }

  /** Both tiers over the parent's test database and warehouse. */
  static CatalogFixture fixture(Map<String, String> a) {
    TestDatabase db =
        new TestDatabase(a.get("url"), a.get("user"), a.get("password"), "child", "x");
    return new CatalogFixture(
        db, Path.of(a.get("warehouse")), Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  /** The tables named by {@code tables}, with {@code lagHours} and {@code graceMinutes}. */
  static List<TableDefinition> tables(Map<String, String> a) {
    Duration lag = Duration.ofHours(Long.parseLong(a.get("lagHours")));
    Duration grace = Duration.ofMinutes(Long.parseLong(a.get("graceMinutes")));
    return List.of(a.get("tables").split(",")).stream()
        .map(n -> CatalogFixture.table(n, lag, grace))
        .toList();
  }

  /** The catalog's maintenance loop, held by this process, streaming {@code chunkRows}. */
  static MaintenanceBuilder loop(Map<String, String> a, MeterCatalog catalog) {
    return catalog
        .maintenance()
        .holder("child-" + ProcessHandle.current().pid())
        .sourceChunkRows(Integer.parseInt(a.get("chunkRows")))
        .compact(Boolean.parseBoolean(a.getOrDefault("compact", "false")));
  }

  /** {@code cycles} cycles from {@code start}, {@code stepMinutes} apart, then the settle ones. */
  static void cycles(
      Map<String, String> a, MaintenanceBuilder loop, FaultHook hook, PrintStream out) {
    Instant start = Instant.parse(a.get("start"));
    Duration step = Duration.ofMinutes(Long.parseLong(a.get("stepMinutes")));
    int cycles = Integer.parseInt(a.get("cycles"));
    for (int i = 0; i < cycles; i++) {
      Instant at = start.plus(step.multipliedBy(i));
      print(out, i, FaultInjection.during(hook, () -> loop.runOnce(at)));
    }
    // With settle=N, keep running the last cycle's `now` (at most N more times) until nothing is
    // due: a cycle that was deferred or contended on a loaded machine is made up, as the next
    // scheduled cycle would in production.
    int settle = Integer.parseInt(a.getOrDefault("settle", "0"));
    Instant last = start.plus(step.multipliedBy(cycles - 1L));
    settle(loop, last, settle, cycles, hook, out);
  }

  private static int settle(
      MaintenanceBuilder loop, Instant at, int times, int cycle, FaultHook hook, PrintStream out) {
    for (int i = 0; i < times; i++) {
      MaintenanceOutcome outcome = FaultInjection.during(hook, () -> loop.runOnce(at));
      print(out, cycle++, outcome);
      if (outcome.rows().stream().allMatch(r -> r.status() == TableOutcome.Status.NOTHING_DUE)) {
        break;
      }
      sleep(200);
    }
    return cycle;
  }

  /**
   * Follows another process's simulated clock: each cycle's {@code now} is the instant in {@code
   * clockFile} (written atomically by that process; {@code start} until it exists) plus {@code
   * stepMinutes} for every cycle already run at that instant, at most {@code maxSteps} of them, so
   * that a window archived at one cycle is reclaimed at a later one. Once {@code stopFile} exists,
   * re-reads the clock and settles there (and one step later) until nothing is due.
   */
  static void follow(Map<String, String> a, MaintenanceBuilder loop, PrintStream out) {
    Path clockFile = Path.of(a.get("clockFile"));
    Path stopFile = Path.of(a.get("stopFile"));
    Duration step = Duration.ofMinutes(Long.parseLong(a.get("stepMinutes")));
    int maxSteps = Integer.parseInt(a.getOrDefault("maxSteps", "3"));
    Instant base = Instant.parse(a.get("start"));
    int steps = 0;
    int cycle = 0;
    while (!Files.exists(stopFile)) {
      Instant read = readClock(clockFile, base);
      if (!read.equals(base)) {
        base = read;
        steps = 0;
      }
      Instant at = base.plus(step.multipliedBy(Math.min(steps++, maxSteps)));
      print(out, cycle++, loop.runOnce(at));
      sleep(150);
    }
    Instant last = readClock(clockFile, base);
    cycle = settle(loop, last, 20, cycle, FaultHook.NONE, out);
    settle(loop, last.plus(step), 20, cycle, FaultHook.NONE, out);
  }

  private static Instant readClock(Path file, Instant otherwise) {
    try {
      return Files.exists(file) ? Instant.parse(Files.readString(file).trim()) : otherwise;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static void print(PrintStream out, int cycle, MaintenanceOutcome outcome) {
    for (TableOutcome row : outcome.rows()) {
      out.println(
          "ROW "
              + cycle
              + " "
              + row.table()
              + " "
              + row.status()
              + " "
              + row.counts().windowsArchived()
              + " "
              + row.invariantViolations().orElse(-1)
              + row.failure().map(f -> " " + f.getMessage()).orElse(""));
    }
  }

  private static FaultHook hook(Map<String, String> a, PrintStream out) {
    FaultPoint crashAt = a.containsKey("crashAt") ? FaultPoint.valueOf(a.get("crashAt")) : null;
    long hold = Long.parseLong(a.getOrDefault("holdMillis", "0"));
    return (point, table, partition) -> {
      if (point == FaultPoint.AFTER_LEASE && hold > 0) {
        sleep(hold);
      }
      if (point == crashAt) {
        out.println("REACHED " + point + " " + table + " " + partition);
        while (true) {
          sleep(60_000);
        }
      }
    };
  }

  static void awaitGo(Map<String, String> a, PrintStream out) {
    if (!a.containsKey("goFile")) {
      return;
    }
    out.println("READY");
    Path go = Path.of(a.get("goFile"));
    while (!Files.exists(go)) {
      sleep(5);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
