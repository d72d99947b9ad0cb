package org.meterstore.api.reading;

import java.util.Locale;
import org.meterstore.api.MeterStoreException;

/** How a reading's value came about. Stored by its constant name. */
public enum Quality {
  /** Measured by the meter. */
  MEASURED,
  /** Estimated (Ersatzwert by estimation). */
  ESTIMATED,
  /** Substituted from another source (Ersatzwert). */
  SUBSTITUTED,
  /** Calculated from other readings. */
  CALCULATED,
  /** Corrected after the fact. */
  CORRECTED,
  /** Preliminary; expected to be replaced by a later version. */
  PRELIMINARY,
  /** Known to be faulty. */
  FAULTY,
  /** Quality not stated by the sender. */
  UNKNOWN;

  /**
   * Whether a value of this quality may be used in a settlement (everything but faulty/unknown).
   */
  public boolean isBillable() {
    return this != FAULTY && this != UNKNOWN;
  }

  /**
   * Parses a quality name, case-insensitively.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for anything but the eight names
   */
  public static Quality parse(String text) {
    if (text != null) {
      String upper = text.trim().toUpperCase(Locale.ROOT);
      for (Quality q : values()) {
        if (q.name().equals(upper)) {
          return q;
        }
      }
    }
    throw MeterStoreException.invalid(
        "quality",
        text,
        "one of MEASURED, ESTIMATED, SUBSTITUTED, CALCULATED, CORRECTED, PRELIMINARY, FAULTY,"
            + " UNKNOWN");
  }
}
