package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.scalar;

import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/** Calendar, OBIS and quality functions, and the completeness table function across DST. */
@ExtendWith(PostgresExtension.class)
class FunctionsIT {
  private static final LocalDate SHORT_DAY = LocalDate.of(2026, 3, 29);

  @TempDir Path warehouse;

  @Test
  void scalarFunctionsApplyTheDomainRules(TestDatabase db) throws Exception {
    TableDefinition def = TableDefinition.interval("lastgang");
    try (QueryFixture d =
            new QueryFixture(db, warehouse, Instant.parse("2026-04-01T00:00:00Z"), List.of(def));
        Connection c = d.catalog.connection()) {
      assertThat(scalar(c, "VALUES meter_balancing_day(TIMESTAMP '2026-01-01 04:00:00', 'GAS')"))
          .isEqualTo("2025-12-31");
      assertThat(scalar(c, "VALUES meter_balancing_day(TIMESTAMP '2026-01-01 04:00:00', 'STROM')"))
          .isEqualTo("2026-01-01");
      assertThat(scalar(c, "VALUES meter_gas_day(TIMESTAMP '2026-01-01 05:00:00')"))
          .isEqualTo("2026-01-01");
      assertThat(scalar(c, "VALUES meter_expected_intervals(DATE '2026-03-29', 'PT15M', 'STROM')"))
          .isEqualTo("92");
      assertThat(scalar(c, "VALUES meter_expected_intervals(DATE '2026-10-25', 'PT15M', 'STROM')"))
          .isEqualTo("100");
      assertThat(scalar(c, "VALUES meter_expected_intervals(DATE '2026-03-28', 'PT1H', 'GAS')"))
          .isEqualTo("23");
      assertThat(scalar(c, "VALUES (obis_is_import('1-0:1.8.0'), obis_is_export('1-0:2.8.0'))"))
          .isEqualTo("true|true");
      assertThat(
              scalar(c, "VALUES (quality_is_billable('FAULTY'), quality_is_billable('MEASURED'))"))
          .isEqualTo("false|true");
    }
  }

  @Test
  void completenessCountsExpectedAndActualIntervalsAndListsSilentMeters(TestDatabase db)
      throws Exception {
    TableDefinition def = TableDefinition.interval("complete");
    try (QueryFixture d =
        new QueryFixture(db, warehouse, Instant.parse("2026-04-05T00:00:00Z"), List.of(def))) {
      List<Reading> batch = new ArrayList<>(day(1, SHORT_DAY, 0));
      batch.addAll(day(2, SHORT_DAY, 2));
      batch.addAll(day(1, SHORT_DAY.plusDays(1), 0));
      d.hot.write(def, batch, d.clock.instant());
      d.archive(
          def, Instant.parse("2026-03-28T00:00:00Z"), Instant.parse("2026-03-29T00:00:00Z"), true);
      try (Connection c = d.catalog.connection()) {
        assertThat(
                Fixtures.query(
                    c,
                    "SELECT malo_id, balancing_day, expected, actual, missing, status FROM"
                        + " TABLE(completeness('complete', '2026-03-29', '2026-03-30'))"))
            .containsExactlyInAnyOrder(
                Workload.malo(1) + "|2026-03-29|92|92|0|COMPLETE|",
                Workload.malo(1) + "|2026-03-30|96|96|0|COMPLETE|",
                Workload.malo(2) + "|2026-03-29|92|90|2|INCOMPLETE|",
                Workload.malo(2) + "|2026-03-30|96|0|96|SILENT|");
      }
    }
  }

  /** The quarter-hours of {@code day} for meter {@code meter}, leaving out the last {@code gap}. */
  private static List<Reading> day(int meter, LocalDate day, int gap) {
    Instant start = MeteringCalendar.dayStart(day, Commodity.STROM);
    long count = MeteringCalendar.expectedIntervals(day, Resolution.PT15M, Commodity.STROM);
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < count - gap; i++) {
      out.add(
          Reading.builder()
              .malo(Workload.malo(meter))
              .obis("1-0:1.8.0")
              .commodity(Commodity.STROM)
              .interval(start.plus(Duration.ofMinutes(15L * i)), Resolution.PT15M)
              .value("0.25")
              .version("20260401000000")
              .operator(Workload.OPERATOR)
              .build());
    }
    return out;
  }
}
