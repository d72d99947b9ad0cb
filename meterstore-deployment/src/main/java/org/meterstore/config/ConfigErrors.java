package org.meterstore.config;

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
    try {
      return make.get();
    } catch (MeterStoreException e) {
      if (e.kind() == ErrorKind.CONFIG) {
        throw e;
      }
      throw config("In " + at + ": " + e.getMessage(), e);
    }
  }

  static MeterStoreException config(String message, Throwable cause) {
    return new MeterStoreException(ErrorKind.CONFIG, message, cause);
  }

  static MeterStoreException config(String message) {
    return new MeterStoreException(ErrorKind.CONFIG, message);
  }
}
