package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.maintenance.internal.fault.FaultHook;

/**
 * A separate JVM that appends through the façade against a test database, for the multi-process
 * tests. Arguments are {@code key=value}, those of {@link MaintenanceChild} ({@code url}, {@code
 * user}, {@code password}, {@code warehouse}, {@code tables}, {@code lagHours}, {@code
 * graceMinutes}, {@code chunkRows}, optionally {@code goFile}) and {@code mode}:
 *
 * <ul>
 *   <li>{@code batch}: appends one {@link CrashBatch} ({@code batch}, {@code seed}, {@code cut}) to
 *       the one table at {@code at}; with {@code archiveAt} (an {@link AppendPoint}) runs one
 *       archival cycle at {@code archiveNow} in-process when the append first reaches that point;
 *       with {@code crashAt} prints {@code REACHED <point> <W>} there and hangs until killed.
 *       Prints {@code RESULT <tier>:<outcome> …} in batch order, then, with {@code start}, {@code
 *       stepMinutes} and {@code cycles}, runs maintenance as {@link MaintenanceChild} does.
 *   <li>{@code days}: appends the {@link DeliveryPlan} of {@code seed} and {@code days}, day by
 *       day, printing {@code BATCH <step> <outcomes> <tiers> <attempts>} per step (outcomes as two
 *       letters each, {@code IN SU SH DU}; tiers as one, {@code H C}) and {@code DAY <date>} after
 *       each day, when it also writes that day's {@link DeliveryPlan#maintainerClock} to {@code
 *       clockFile} (the last day: {@link DeliveryPlan#finalClock}). Before each day it waits for
 *       archival to be at most a day behind. Stops after the day in which {@code budgetSeconds} of
 *       wall time ran out; retries a retryable failure with the same {@code now}, printing {@code
 *       RETRY <step> <kind> <retryable> <message>}.
 * </ul>
 *
 * Then prints {@code DONE}. Logging goes to stderr.
 */
public final class AppendChild {
  private AppendChild() {}

  /** Runs the child. */
  public static void main(String[] args) throws Exception {
    Map<String, String> a = MaintenanceChild.arguments(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    List<TableDefinition> tables = MaintenanceChild.tables(a);
    try (CatalogFixture d = MaintenanceChild.fixture(a);
        MeterCatalog catalog = d.catalog(tables, OpenTelemetry.noop())) {
      MaintenanceChild.awaitGo(a, out);
      if (a.get("mode").equals("days")) {
        days(a, catalog, out);
      } else {
        batch(a, catalog, out);
        if (a.containsKey("cycles")) {
          MaintenanceChild.cycles(a, MaintenanceChild.loop(a, catalog), FaultHook.NONE, out);
        }
      }
    }
    out.println("DONE");
  }

  private static void batch(Map<String, String> a, MeterCatalog catalog, PrintStream out) {
    String table = a.get("tables");
    List<Reading> batch =
        CrashBatch.valueOf(a.get("batch"))
            .of(CrashBatch.workload(Long.parseLong(a.get("seed"))), Instant.parse(a.get("cut")));
    catalog.appendHook(hook(a, catalog, out));
    WriteResult result = catalog.table(table).append(batch, Instant.parse(a.get("at")));
    StringBuilder line = new StringBuilder("RESULT");
    for (int i = 0; i < result.size(); i++) {
      line.append(' ').append(result.tier(i)).append(':').append(result.outcome(i));
    }
    out.println(line);
  }

  private static AppendHook hook(Map<String, String> a, MeterCatalog catalog, PrintStream out) {
    AppendPoint archiveAt = point(a, "archiveAt");
    AppendPoint crashAt = point(a, "crashAt");
    AtomicBoolean archived = new AtomicBoolean();
    return (point, table, w) -> {
      if (point == archiveAt && archived.compareAndSet(false, true)) {
        Instant at = Instant.parse(a.get("archiveNow"));
        MaintenanceChild.print(out, -1, catalog.archive(at, 8));
      }
      if (point == crashAt) {
        out.println("REACHED " + point + " " + w);
        while (true) {
          MaintenanceChild.sleep(60_000);
        }
      }
    };
  }

  private static AppendPoint point(Map<String, String> a, String key) {
    return a.containsKey(key) ? AppendPoint.valueOf(a.get(key)) : null;
  }

  private static void days(Map<String, String> a, MeterCatalog catalog, PrintStream out) {
    DeliveryPlan plan =
        new DeliveryPlan(
            catalog.tables(), Long.parseLong(a.get("seed")), Integer.parseInt(a.get("days")));
    long deadline =
        System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(a.get("budgetSeconds")));
    Path clock = Path.of(a.get("clockFile"));
    List<DeliveryPlan.Step> steps = plan.steps();
    for (int i = 0; i < steps.size(); i++) {
      DeliveryPlan.Step step = steps.get(i);
      boolean dayStarts = i == 0 || !steps.get(i - 1).day().equals(step.day());
      if (dayStarts && !step.day().minusDays(2).isBefore(DeliveryPlan.FIRST_DAY)) {
        awaitArchived(catalog, DeliveryPlan.watermarkAfter(step.day().minusDays(2)), out);
      }
      out.println("BATCH " + i + " " + append(catalog, i, step, out));
      boolean dayDone = i + 1 == steps.size() || !steps.get(i + 1).day().equals(step.day());
      if (dayDone) {
        boolean last = i + 1 == steps.size() || System.nanoTime() > deadline;
        publish(clock, last ? plan.finalClock(step.day()) : plan.maintainerClock(step.day()));
        out.println("DAY " + step.day());
        if (last) {
          return;
        }
      }
    }
  }

  /**
   * Paces the appender one day ahead of archival: before writing day {@code d}, waits (at most 10
   * s) until every table's W reached what the day before yesterday made due, so that corrections of
   * older days are late corrections below W and those of yesterday race its archival.
   */
  private static void awaitArchived(MeterCatalog catalog, Instant w, PrintStream out) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (TableDefinition t : catalog.tables()) {
      while (catalog.table(t.name()).watermark().isBefore(w)) {
        if (System.nanoTime() > deadline) {
          out.println("WAITED " + t.name() + " " + w);
          return;
        }
        MaintenanceChild.sleep(100);
      }
    }
  }

  /** Appends one step, retrying a retryable failure with the same {@code now}. */
  private static String append(
      MeterCatalog catalog, int index, DeliveryPlan.Step step, PrintStream out) {
    for (int attempt = 1; ; attempt++) {
      try {
        WriteResult r = catalog.table(step.table()).append(step.readings(), step.now());
        String outcomes =
            r.outcomes().stream().map(o -> o.name().substring(0, 2)).collect(Collectors.joining());
        String tiers =
            r.tiers().stream().map(t -> t.name().substring(0, 1)).collect(Collectors.joining());
        return outcomes + " " + tiers + " " + attempt;
      } catch (MeterStoreException e) {
        out.println("RETRY " + index + " " + e.kind() + " " + e.isRetryable() + " " + oneLine(e));
        if (!e.isRetryable() || attempt == 100) {
          throw e;
        }
        MaintenanceChild.sleep(100);
      }
    }
  }

  private static String oneLine(Exception e) {
    return String.valueOf(e.getMessage()).replace('\n', ' ');
  }

  /** Writes {@code now} to {@code file} atomically (a reader sees the old or the new instant). */
  private static void publish(Path file, Instant now) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, now.toString());
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
