package org.meterstore.reliability;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.testing.workload.Workload;

/**
 * A meter's 24 hourly electricity readings from an instant: the small days the ITs here deliver.
 */
final class HourlyDay {
  private HourlyDay() {}

  /** Hour {@code i} of the day has the value {@code (i + offset) / 10}. */
  static List<Reading> of(int meter, Instant start, String version, int offset) {
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      out.add(
          reading(
              meter, start.plus(Duration.ofHours(i)), version, BigDecimal.valueOf(i + offset, 1)));
    }
    return out;
  }

  /** One measured hour of meter {@code meter} (workload ids) from {@code from}. */
  static Reading reading(int meter, Instant from, String version, BigDecimal value) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .unit(Unit.KWH)
        .interval(from, Resolution.PT1H)
        .value(value)
        .quality(Quality.MEASURED)
        .operator(Workload.OPERATOR)
        .version(version)
        .build();
  }
}
