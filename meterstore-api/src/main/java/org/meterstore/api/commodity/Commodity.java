package org.meterstore.api.commodity;

import java.util.Locale;
import java.util.Set;
import org.meterstore.api.MeterStoreException;

/** The commodity (Sparte) a reading measures. Stored by its constant name, e.g. {@code STROM}. */
public enum Commodity {
  /** Electricity. Balanced on calendar days. */
  STROM(Set.of(Unit.KWH)),
  /** Natural gas. Balanced on gas days (06:00 to 06:00 local time). */
  GAS(Set.of(Unit.KWH, Unit.M3)),
  /** District heat. Balanced on calendar days. */
  WAERME(Set.of(Unit.KWH)),
  /** Water. Balanced on calendar days. */
  WASSER(Set.of(Unit.M3));

  private final Set<Unit> units;

  Commodity(Set<Unit> units) {
    this.units = units;
  }

  /** The units a quantity of this commodity may be stated in. */
  public Set<Unit> units() {
    return units;
  }

  /** Whether {@code unit} is valid for this commodity. */
  public boolean accepts(Unit unit) {
    return units.contains(unit);
  }

  /** Whether this commodity is balanced on gas days rather than calendar days. */
  public boolean usesGasDay() {
    return this == GAS;
  }

  /**
   * Parses a commodity name, case-insensitively.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for anything but the four names
   */
  public static Commodity parse(String text) {
    if (text != null) {
      String upper = text.trim().toUpperCase(Locale.ROOT);
      for (Commodity c : values()) {
        if (c.name().equals(upper)) {
          return c;
        }
      }
    }
    throw MeterStoreException.invalid("commodity", text, "one of STROM, GAS, WAERME, WASSER");
  }
}
