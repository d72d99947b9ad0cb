package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportOptions;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;

/**
 * A separate JVM that imports one file through the façade, for {@link ImportCrashIT}. Arguments are
 * {@code key=value}: those of {@link MaintenanceChild} ({@code url}, {@code user}, {@code
 * password}, {@code warehouse}, {@code tables} — one —, {@code lagHours}, {@code graceMinutes},
 * {@code chunkRows}, the import's chunk size), {@code file}, {@code now}, and optionally {@code
 * hangAfter} (after that many chunks are committed, hang in the progress callback until killed) and
 * {@code pauseAfter} with {@code goFile} (after that many chunks, print {@code PAUSED} and wait for
 * the file to exist before going on).
 *
 * <p>Prints {@code CHUNK <chunks> <rowsDone> <rowsTotal>} after each committed chunk, then {@code
 * RESULT <rows> <inserted> <duplicate> <commits>} and {@code DONE}. Logging goes to stderr.
 */
public final class ImportChild {
  private ImportChild() {}

  /** Runs the child. */
  public static void main(String[] args) throws Exception {
    Map<String, String> a = MaintenanceChild.arguments(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    List<TableDefinition> tables = MaintenanceChild.tables(a);
    int hangAfter = Integer.parseInt(a.getOrDefault("hangAfter", "-1"));
    int pauseAfter = Integer.parseInt(a.getOrDefault("pauseAfter", "-1"));
    AtomicInteger chunks = new AtomicInteger();
    ImportOptions options =
        ImportOptions.DEFAULTS
            .withChunkRows(Integer.parseInt(a.get("chunkRows")))
            .withProgress(
                (done, total) -> {
                  int n = chunks.incrementAndGet();
                  out.println("CHUNK " + n + " " + done + " " + total);
                  if (n == pauseAfter) {
                    out.println("PAUSED");
                    Path go = Path.of(a.get("goFile"));
                    while (!Files.exists(go)) {
                      MaintenanceChild.sleep(5);
                    }
                  }
                  if (n == hangAfter) {
                    while (true) {
                      MaintenanceChild.sleep(60_000);
                    }
                  }
                });
    try (CatalogFixture d = MaintenanceChild.fixture(a);
        MeterCatalog catalog = d.catalog(tables, OpenTelemetry.noop())) {
      ImportResult r =
          catalog
              .table(tables.get(0).name())
              .importHistory(
                  ImportSource.of(Path.of(a.get("file"))), Instant.parse(a.get("now")), options);
      out.println(
          "RESULT " + r.rows() + " " + r.inserted() + " " + r.duplicate() + " " + r.commits());
    }
    out.println("DONE");
  }
}
