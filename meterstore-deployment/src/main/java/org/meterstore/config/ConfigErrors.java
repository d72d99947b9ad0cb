package org.meterstore.config;

import java.util.List;
import java.util.function.Supplier;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/** Turns validation errors of the modules' own records into {@code CONFIG} errors with a path. */
final class ConfigErrors {
  private ConfigErrors() {}

  /**
   * Runs {@code make}; an {@code INVALID_INPUT} it throws becomes {@code CONFIG} under {@code at}.
   */
  static <T> T asConfig(String at, Supplier<T> make) {
    return asConfig(at, List.of(), make);
  }

  /**
   * As {@link #asConfig(String, Supplier)}, and a value of {@code raw} (the section's texts as
   * written) that the error shows as the invalid value is replaced by {@code (value not shown)}: a
   * value that fails a rule may be a secret pasted into the wrong key. The cause is then dropped,
   * since its message holds the value.
   */
  static <T> T asConfig(String at, List<String> raw, Supplier<T> make) {
    try {
      return make.get();
    } catch (MeterStoreException e) {
      if (e.kind() == ErrorKind.CONFIG) {
        throw e;
      }
      String message = e.getMessage();
      for (String value : raw) {
        if (value != null && !value.isEmpty()) {
          String shown = MeterStoreException.shown(value);
          int end = shown.lastIndexOf('\'');
          message = message.replace(shown.substring(0, end + 1), "(value not shown)");
        }
      }
      boolean hidden = !message.equals(e.getMessage());
      throw config("In " + at + ": " + message, hidden ? null : e);
    }
  }

  static MeterStoreException config(String message, Throwable cause) {
    return new MeterStoreException(ErrorKind.CONFIG, message, cause);
  }

  static MeterStoreException config(String message) {
    return new MeterStoreException(ErrorKind.CONFIG, message);
  }
}
