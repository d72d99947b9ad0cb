package org.meterstore.api.reading;

import java.time.Instant;
import java.time.LocalDate;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;

/**
 * A reading as stored: the delivery plus what MeterStore stamped on it at write time.
 *
 * @param reading the delivered reading
 * @param version the effective version: the operator's, or the arrival version
 * @param recordedAt when MeterStore accepted it (the caller's {@code now}), UTC
 * @param balancingDay the day it is settled on, Europe/Berlin (gas: gas day)
 */
public record StoredReading(
    Reading reading, Version version, Instant recordedAt, LocalDate balancingDay) {

  /** Checks that every stamp is present. */
  public StoredReading {
    if (reading == null || version == null || recordedAt == null || balancingDay == null) {
      throw MeterStoreException.invalid(
          "stored reading", reading, "reading, version, recorded_at and balancing_day required");
    }
  }

  /**
   * Stamps a delivery accepted at {@code now}: its own version or the arrival version, and the
   * balancing day of its {@code from}.
   */
  public static StoredReading accept(Reading reading, Instant now) {
    Version v = reading.version() != null ? reading.version() : Version.arrival(now);
    return new StoredReading(
        reading, v, now, MeteringCalendar.balancingDay(reading.from(), reading.commodity()));
  }
}
