package org.meterstore.api.id;

import org.meterstore.api.MeterStoreException;

/**
 * Builds the {@code INVALID_INPUT} error for a refused identifier. Identifiers are parsed at the
 * boundary from files and messages, so the refused text is shortened and stripped of control
 * characters before it goes into a message that ends up in logs.
 */
final class Refusal {
  private static final int MAX_SHOWN = 64;

  private Refusal() {}

  /** {@code Invalid <field>: '<value>' (<rule>)}, with {@code value} made safe to log. */
  static MeterStoreException of(String field, String value, String rule) {
    return MeterStoreException.invalid(field, value == null ? null : shown(value), rule);
  }

  private static String shown(String value) {
    StringBuilder shown = new StringBuilder(Math.min(value.length(), MAX_SHOWN + 20));
    int limit = Math.min(value.length(), MAX_SHOWN);
    for (int i = 0; i < limit; i++) {
      char c = value.charAt(i);
      shown.append(Character.isISOControl(c) ? '?' : c);
    }
    if (value.length() > MAX_SHOWN) {
      shown.append("... (").append(value.length()).append(" characters)");
    }
    return shown.toString();
  }
}
