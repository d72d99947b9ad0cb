package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.MeterCatalog;
import org.meterstore.Tiers;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * A foreign writer (a repair job, Spark) appends a row whose version ties a stored one, with a
 * later {@code recorded_at}: the later row wins (DESIGN § 3.3) in every read mode, also where a
 * version ceiling leaves only the two tied files to read. Found by {@link HistoryPropertyIT} (seed
 * 8): both files held one version each, so the cold reader skipped resolution for both and returned
 * the reading twice.
 */
@ExtendWith(PostgresExtension.class)
class ForeignTieIT {
  private static final String VERSION = "20260610010000";
  private static final Instant DELIVERED = Instant.parse("2026-06-10T01:00:00Z");

  @TempDir Path warehouse;

  @Test
  void aForeignRowTyingAStoredVersionWinsByRecordedAtInEveryMode(TestDatabase db) throws Exception {
    TableDefinition def =
        TableDefinition.interval("tie")
            .withPolicy(
                TablePolicy.DEFAULTS
                    .withPartitionHeadroom(Duration.ofDays(2))
                    .withSettlementLag(Duration.ofHours(6)));
    try (TwoTiers stores =
            new TwoTiers(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
        MeterCatalog catalog =
            MeterCatalog.of(stores.hot, stores.cold, List.of(def), OpenTelemetry.noop())) {
      catalog.createTables(DELIVERED.minus(Duration.ofDays(1)));
      List<Reading> day = day();
      catalog.table("tie").append(day, DELIVERED);
      catalog.maintenance().runOnce(Instant.parse("2026-06-10T07:00:00Z"));
      assertThat(catalog.table("tie").watermark()).isEqualTo(Instant.parse("2026-06-10T00:00:00Z"));
      Reading corrected =
          day.get(10).toBuilder().version("20260611070000").value("9.000000").build();
      catalog.table("tie").append(List.of(corrected), Instant.parse("2026-06-11T07:00:00Z"));
      Reading tied = day.get(5);
      Reading changed = tied.toBuilder().value(tied.value().add(BigDecimal.ONE)).build();
      ForeignWriter.append(
          Tiers.coldTable(catalog, "tie").icebergTable(),
          def,
          List.of(
              new StoredReading(
                  changed,
                  StoredReading.accept(tied, DELIVERED).version(),
                  Instant.parse("2026-06-12T00:00:00Z"),
                  MeteringCalendar.balancingDay(tied.from(), Commodity.STROM))));
      catalog.table("tie").reassertWatermark(Instant.parse("2026-06-12T00:00:01Z"));

      BigDecimal delivered =
          day.stream().map(Reading::value).reduce(BigDecimal.ZERO, BigDecimal::add);
      BigDecimal current =
          delivered.add(BigDecimal.ONE).subtract(day.get(10).value()).add(new BigDecimal(9));
      try (Connection c = catalog.connection()) {
        assertThat(totals(c, "\"tie\"")).isEqualTo(List.of("96", plain(current)));
        assertThat(totals(c, "TABLE(current_state('tie', '" + VERSION + "'))"))
            .as("below the ceiling only the two tied files remain")
            .isEqualTo(List.of("96", plain(delivered.add(BigDecimal.ONE))));
        assertThat(totals(c, "TABLE(historical('tie'))")).isEqualTo(List.of("96", plain(current)));
        assertThat(totals(c, "\"tie_versions\"")).element(0).isEqualTo("98");
      }
    }
  }

  private static List<Reading> day() {
    Instant start = MeteringCalendar.dayStart(java.time.LocalDate.of(2026, 6, 9), Commodity.STROM);
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < 96; i++) {
      out.add(
          Reading.builder()
              .malo(Workload.malo(1))
              .obis("1-0:1.8.0")
              .commodity(Commodity.STROM)
              .unit(Unit.KWH)
              .interval(start.plus(Duration.ofMinutes(15L * i)), Resolution.PT15M)
              .value(BigDecimal.valueOf(i, 2))
              .quality(Quality.MEASURED)
              .operator(Workload.OPERATOR)
              .version(VERSION)
              .build());
    }
    return out;
  }

  private static List<String> totals(Connection c, String relation) throws Exception {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(\"value\") FROM " + relation)) {
      rs.next();
      return List.of(Long.toString(rs.getLong(1)), plain(rs.getBigDecimal(2)));
    }
  }

  private static String plain(BigDecimal d) {
    return d.stripTrailingZeros().toPlainString();
  }
}
