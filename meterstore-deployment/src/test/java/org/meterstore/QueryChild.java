package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;

/**
 * A separate JVM that queries through the façade's JDBC connection until {@code stopFile} exists:
 * for every table, {@code COUNT(*)} and {@code SUM("value")} of the current relation and of its
 * {@code _versions} relation, over both tiers. Arguments as for {@link MaintenanceChild} plus
 * {@code stopFile} and {@code pinClock} (the instant the reader pins are stamped with: a fixed
 * instant after the simulated period, so a pin never expires under a running query).
 *
 * <p>Prints {@code Q <relation> <count> <sum>} per answer, {@code RETRYABLE <relation> <message>}
 * for a failure that is a retryable typed error ({@link SQLTransientException} caused by a
 * retryable {@link MeterStoreException}) and {@code BAD <relation> <message>} for any other, then
 * {@code DONE}.
 */
public final class QueryChild {
  private QueryChild() {}

  /** Runs the child. */
  public static void main(String[] args) throws Exception {
    Map<String, String> a = MaintenanceChild.arguments(args);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    List<TableDefinition> tables = MaintenanceChild.tables(a);
    Path stop = Path.of(a.get("stopFile"));
    InstantSource pins = InstantSource.fixed(Instant.parse(a.get("pinClock")));
    try (CatalogFixture d = MaintenanceChild.fixture(a);
        MeterCatalog catalog = MeterCatalog.of(d.hot, d.cold, tables, OpenTelemetry.noop(), pins)) {
      MaintenanceChild.awaitGo(a, out);
      while (!Files.exists(stop)) {
        for (TableDefinition t : tables) {
          query(catalog, t.name(), out);
          query(catalog, t.name() + "_versions", out);
        }
        MaintenanceChild.sleep(20);
      }
    }
    out.println("DONE");
  }

  private static void query(MeterCatalog catalog, String relation, PrintStream out) {
    String sql = "SELECT COUNT(*), SUM(\"value\") FROM \"" + relation + "\"";
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      out.println("Q " + relation + " " + rs.getLong(1) + " " + rs.getBigDecimal(2));
    } catch (SQLException | RuntimeException e) {
      out.println((retryable(e) ? "RETRYABLE " : "BAD ") + relation + " " + describe(e));
    }
  }

  private static boolean retryable(Exception e) {
    return e instanceof SQLTransientException
        && e.getCause() instanceof MeterStoreException m
        && m.isRetryable();
  }

  private static String describe(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" <- ");
    }
    return b.toString().replace('\n', ' ');
  }
}
