package org.meterstore.hot.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The grid CHECK says in SQL what {@link MeteringCalendar#isAligned} says in Java, for every kind
 * of resolution and both day starts (midnight, gas day 06:00), on the days the clocks change and
 * around them. Candidates are grid points of the Java rule, near misses by a second to an hour, and
 * seeded random instants (ADR 0003).
 */
@ExtendWith(PostgresExtension.class)
class GridCheckIT {
  private static final long SEED = 20260329L;
  private static final Instant[] DAYS = {
    Instant.parse("2026-03-27T12:00:00Z"),
    Instant.parse("2026-03-28T12:00:00Z"),
    Instant.parse("2026-03-29T12:00:00Z"),
    Instant.parse("2026-10-24T12:00:00Z"),
    Instant.parse("2026-10-25T12:00:00Z"),
    Instant.parse("2026-05-31T12:00:00Z"),
    Instant.parse("2026-12-31T12:00:00Z")
  };

  private final TestDatabase db;

  GridCheckIT(TestDatabase db) {
    this.db = db;
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT15M", "PT1M", "PT1H", "PT2H", "PT1H30M", "PT12H", "P1D", "P1M", "P1Y"})
  void theCheckAgreesWithTheCalendar(String iso) throws SQLException {
    Resolution r = Resolution.parse(iso);
    String expression =
        GridCheck.of(TableDefinition.interval("t").withResolution(r)).orElseThrow().expression();
    String sql =
        "SELECT ("
            + expression
            + ") FROM (SELECT ?::timestamptz AS \"from\", ?::timestamptz AS \"to\", ?::text AS"
            + " sparte, ?::text AS resolution) v";
    int agreed = 0;
    int aligned = 0;
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement(sql)) {
      for (Commodity commodity : List.of(Commodity.STROM, Commodity.GAS)) {
        for (Instant[] span : candidates(r, commodity)) {
          boolean java = MeteringCalendar.isAligned(span[0], span[1], r, commodity);
          s.setObject(1, span[0].atOffset(ZoneOffset.UTC));
          s.setObject(2, span[1].atOffset(ZoneOffset.UTC));
          s.setString(3, commodity.name());
          s.setString(4, iso);
          try (ResultSet rs = s.executeQuery()) {
            rs.next();
            assertThat(rs.getBoolean(1))
                .as("%s %s [%s, %s)", iso, commodity, span[0], span[1])
                .isEqualTo(java);
          }
          agreed++;
          aligned += java ? 1 : 0;
        }
      }
    }
    assertThat(aligned).as("grid points among the candidates").isGreaterThan(10);
    assertThat(agreed - aligned).as("off-grid candidates").isGreaterThan(10);
  }

  private static List<Instant[]> candidates(Resolution r, Commodity commodity) {
    List<Instant[]> spans = new ArrayList<>();
    Random random = new Random(SEED);
    Duration[] nudges = {
      Duration.ZERO, Duration.ofSeconds(1), Duration.ofMinutes(5), Duration.ofHours(1)
    };
    for (Instant day : DAYS) {
      Instant start =
          MeteringCalendar.dayStart(MeteringCalendar.balancingDay(day, commodity), commodity);
      Instant end =
          MeteringCalendar.dayEnd(MeteringCalendar.balancingDay(day, commodity), commodity);
      List<Instant> froms = new ArrayList<>(List.of(start, end.minus(Duration.ofHours(1))));
      r.fixedLength().ifPresent(step -> froms.add(end.minus(step)));
      if (r.isCalendar()) {
        froms.add(
            MeteringCalendar.monthStart(
                MeteringCalendar.balancingMonth(day, commodity), commodity));
        froms.add(
            MeteringCalendar.dayStart(
                MeteringCalendar.balancingDay(day, commodity).withDayOfYear(1), commodity));
      }
      froms.add(day.plusSeconds(random.nextInt(86_400)));
      for (Instant from : froms) {
        for (Duration nudge : nudges) {
          Instant f = from.plus(nudge);
          spans.add(new Instant[] {f, naturalEnd(f, r, commodity)});
          spans.add(new Instant[] {f, naturalEnd(f, r, commodity).plus(Duration.ofHours(1))});
          spans.add(new Instant[] {f, f.plus(Duration.ofHours(24))});
        }
      }
    }
    return spans;
  }

  /** The end a reading starting at {@code from} would have if it were on the grid. */
  private static Instant naturalEnd(Instant from, Resolution r, Commodity commodity) {
    if (r.fixedLength().isPresent()) {
      return from.plus(r.fixedLength().get());
    }
    var day = MeteringCalendar.balancingDay(from, commodity);
    if (r.equals(Resolution.P1D)) {
      return MeteringCalendar.dayEnd(day, commodity);
    }
    if (r.equals(Resolution.P1M)) {
      return MeteringCalendar.monthEnd(java.time.YearMonth.from(day), commodity);
    }
    return MeteringCalendar.dayStart(day.withDayOfYear(1).plusYears(1), commodity);
  }
}
