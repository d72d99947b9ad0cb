package org.meterstore.cli;

import java.time.Duration;
import org.meterstore.config.Units;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a duration option in the configuration file's grammar ({@link Units#parseDuration}): whole
 * numbers with units, one or more parts ({@code 500ms}, {@code 30s}, {@code 15m}, {@code 1h30m},
 * {@code 7d}), or ISO-8601 ({@code PT15M}). A bare number is refused: its unit would be a guess.
 */
final class Durations {
  private Durations() {}

  static Duration parse(String text) {
    return Units.parseDuration(text)
        .orElseThrow(
            () ->
                new TypeConversionException(
                    "'" + text + "' is not " + Units.DURATION_RULE.replace('"', '\'')));
  }
}
