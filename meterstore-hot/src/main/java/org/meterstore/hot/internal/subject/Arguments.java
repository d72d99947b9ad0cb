package org.meterstore.hot.internal.subject;

import org.meterstore.api.MeterStoreException;

/** The registry's argument checks, failing with {@code INVALID_INPUT} in the house format. */
final class Arguments {
  static final int MAX_REASON = 1000;
  static final int MAX_ACTOR = 200;
  static final int MAX_ROWS = 100_000;

  private Arguments() {}

  static String reason(String reason) {
    return text("reason", reason, MAX_REASON);
  }

  static String actor(String actor) {
    return text("actor", actor, MAX_ACTOR);
  }

  static <T> T required(String field, T value) {
    if (value == null) {
      throw MeterStoreException.invalid(field, null, "required");
    }
    return value;
  }

  static int range(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw MeterStoreException.invalid(field, value, min + " to " + max);
    }
    return value;
  }

  private static String text(String field, String value, int max) {
    if (value == null || value.isBlank() || value.length() > max) {
      throw MeterStoreException.invalid(field, value, "1 to " + max + " characters, not blank");
    }
    return value;
  }
}
