package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.StoredRow;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.imports.ImportResult;
import org.meterstore.imports.ImportSource;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A batch of late corrections spread over every location and every day of a settled month — a
 * market partner's restatement after a billing run — is appended by a process whose heap is a
 * fraction of the month's stored rows (found by the {@code point} benchmark at 1,000 locations,
 * where it ran out of a 2 GiB heap): the cold duplicate check keeps what can share a merge key with
 * the batch, not every stored row of the batch's locations in its range. The corrections are {@code
 * SUPERSEDED} in the cold tier and the month's sum moves by exactly their difference.
 */
@ExtendWith(PostgresExtension.class)
class LateCorrectionMemoryIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-02-20T00:00:00Z");
  private static final Instant MARCH = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant APRIL = Instant.parse("2026-04-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-04-10T00:00:00Z");
  private static final Instant RECORDED = Instant.parse("2026-04-02T08:15:00Z");
  private static final Instant CORRECTED_AT = NOW.plus(Duration.ofDays(2));

  /** 357,120 stored readings: far more than the child's heap holds as rows. */
  private static final int METERS = 120;

  private static final int DAYS = 31;
  private static final String CHILD_HEAP = "96m";

  @TempDir static Path warehouse;
  @TempDir static Path scratch;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aCorrectionOfEveryLocationAndDayIsCheckedInAHeapSmallerThanTheMonth(TestDatabase db)
      throws Exception {
    TableDefinition table = CatalogFixture.table("late_memory", LAG, GRACE);
    List<Object[]> rows = month(table);
    Path file = ImportCsv.write(scratch.resolve("march.csv"), table, rows);
    BigDecimal before;
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      catalog.createTables(CREATED);
      ImportResult imported = catalog.table(table.name()).importHistory(ImportSource.of(file), NOW);
      assertThat(imported.inserted()).isEqualTo(rows.size());
      before = sum(catalog, table);
    }
    assertThat(d.cold.createTable(table).watermark()).isAfterOrEqualTo(APRIL);

    ChildArgs args =
        new ChildArgs(db, warehouse, table.name(), LAG, GRACE)
            .put("meters", Integer.toString(METERS))
            .put("from", MARCH.toString())
            .put("days", Integer.toString(DAYS))
            .put("now", CORRECTED_AT.toString());
    try (Child child = Child.start(CorrectionChild.class, CHILD_HEAP, log(), args.list())) {
      String result = child.await("RESULT ", 300);
      assertThat(result).isEqualTo("RESULT 0 " + METERS * DAYS + " 0 0 [COLD]");
      child.await("DONE", 60);
      assertThat(child.exit(60)).isZero();
    }

    BigDecimal delta = BigDecimal.ZERO;
    for (int day = 0; day < DAYS; day++) {
      for (int meter = 1; meter <= METERS; meter++) {
        delta =
            delta
                .add(new BigDecimal(corrected(meter, day)))
                .subtract(new BigDecimal(value(meter, day * 96 + 48)));
      }
    }
    try (MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop())) {
      assertThat(sum(catalog, table)).isEqualByComparingTo(before.add(delta));
    }
  }

  /** The corrected value of {@code meter}'s quarter-hour at noon of March's day {@code day}. */
  static String corrected(int meter, int day) {
    return meter + "." + String.format("%03d", day) + "5";
  }

  /** The month, sorted by {@code from}: every quarter-hour of every meter. */
  private static List<Object[]> month(TableDefinition table) {
    List<Object[]> all = new ArrayList<>();
    int i = 0;
    for (Instant t = MARCH; t.isBefore(APRIL); t = t.plus(Duration.ofMinutes(15)), i++) {
      for (int meter = 1; meter <= METERS; meter++) {
        StoredReading s =
            StoredReading.accept(ImportCsv.quarterHour(meter, t, value(meter, i)), RECORDED);
        all.add(StoredRow.of(table, s));
      }
    }
    return all;
  }

  private static String value(int meter, int i) {
    return meter + "." + String.format("%06d", (i * 7919L + meter) % 1_000_000);
  }

  private static BigDecimal sum(MeterCatalog catalog, TableDefinition table) throws SQLException {
    try (Connection c = catalog.connection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT SUM(\"value\") FROM \"" + table.name() + "\"")) {
      rs.next();
      return rs.getBigDecimal(1);
    }
  }

  private static Path log() throws IOException {
    return Files.createDirectories(Path.of("target", "child-logs"))
        .resolve("LateCorrectionMemoryIT.log");
  }
}
