package org.meterstore.examples;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;

/** A day of 15-minute electricity readings for one market location, as an application maps them. */
final class Readings {
  /** A valid market location id (11 digits with check digit). */
  static final String MALO = "51238696781";

  /** The network operator's 13-digit market partner id. */
  static final String OPERATOR = "9900000000003";

  private Readings() {}

  /** Every quarter-hour of {@code day} (Europe/Berlin: 92, 96 or 100 of them). */
  static List<Reading> day(LocalDate day, String version, String subject) {
    Instant start = MeteringCalendar.dayStart(day, Commodity.STROM);
    long count = MeteringCalendar.expectedIntervals(day, Resolution.PT15M, Commodity.STROM);
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      var b =
          Reading.builder()
              .malo(MALO)
              .obis("1-0:1.8.0")
              .commodity(Commodity.STROM)
              .interval(start.plusSeconds(900L * i), Resolution.PT15M)
              .value(BigDecimal.valueOf(100 + (i % 8) * 25, 3))
              .operator(OPERATOR)
              .version(version)
              .sourceKind("MSCONS");
      if (subject != null) {
        b.subject(subject);
      }
      out.add(b.build());
    }
    return out;
  }
}
