package org.meterstore.api.commodity;

import java.util.Locale;
import org.meterstore.api.MeterStoreException;

/** The unit a reading's value is stated in. Which units a commodity accepts: {@link Commodity}. */
public enum Unit {
  /** Kilowatt-hours. */
  KWH,
  /** Cubic metres. */
  M3;

  /**
   * Parses a unit name, case-insensitively ({@code kWh}, {@code KWH}, {@code m3}).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for anything else
   */
  public static Unit parse(String text) {
    if (text != null) {
      String upper = text.trim().toUpperCase(Locale.ROOT);
      for (Unit u : values()) {
        if (u.name().equals(upper)) {
          return u;
        }
      }
    }
    throw MeterStoreException.invalid("unit", text, "one of KWH, M3");
  }
}
