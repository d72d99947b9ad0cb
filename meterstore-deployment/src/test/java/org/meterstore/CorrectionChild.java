package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;

/**
 * A separate JVM with a small heap that appends one batch of late corrections through the façade,
 * for {@link LateCorrectionMemoryIT}. Arguments are {@code key=value}: those of {@link
 * MaintenanceChild} ({@code url}, {@code user}, {@code password}, {@code warehouse}, {@code tables}
 * — one —, {@code lagHours}, {@code graceMinutes}), {@code meters}, {@code from}, {@code days} and
 * {@code now}: the batch restates the quarter-hour at noon of every day of every meter ({@link
 * LateCorrectionMemoryIT#corrected}), all below W, at {@code now}.
 *
 * <p>Prints {@code RESULT <inserted> <superseded> <shadowed> <duplicate> <tiers>}, then {@code
 * DONE}. Logging goes to stderr.
 */
public final class CorrectionChild {
  private CorrectionChild() {}

  /** Runs the child. */
  public static void main(String[] args) throws Exception {
    Map<String, String> a = MaintenanceChild.arguments(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    List<TableDefinition> tables = MaintenanceChild.tables(a);
    int meters = Integer.parseInt(a.get("meters"));
    Instant from = Instant.parse(a.get("from"));
    int days = Integer.parseInt(a.get("days"));
    List<Reading> batch = new ArrayList<>();
    for (int day = 0; day < days; day++) {
      Instant noon = from.plus(Duration.ofDays(day)).plus(Duration.ofHours(12));
      for (int meter = 1; meter <= meters; meter++) {
        batch.add(ImportCsv.quarterHour(meter, noon, LateCorrectionMemoryIT.corrected(meter, day)));
      }
    }
    try (CatalogFixture d = MaintenanceChild.fixture(a);
        MeterCatalog catalog = d.catalog(tables, OpenTelemetry.noop())) {
      WriteResult r =
          catalog.table(tables.get(0).name()).append(batch, Instant.parse(a.get("now")));
      Map<WriteOutcome, Integer> counts = new EnumMap<>(WriteOutcome.class);
      r.outcomes().forEach(o -> counts.merge(o, 1, Integer::sum));
      out.println(
          "RESULT "
              + counts.getOrDefault(WriteOutcome.INSERTED, 0)
              + " "
              + counts.getOrDefault(WriteOutcome.SUPERSEDED, 0)
              + " "
              + counts.getOrDefault(WriteOutcome.SHADOWED, 0)
              + " "
              + counts.getOrDefault(WriteOutcome.DUPLICATE, 0)
              + " "
              + r.tiers().stream().distinct().toList());
    }
    out.println("DONE");
  }
}
