package org.meterstore.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a duration option: a positive whole number with a unit ({@code 500ms}, {@code 30s}, {@code
 * 15m}, {@code 1h}, {@code 7d}) or ISO-8601 ({@code PT15M}). A bare number is refused: its unit
 * would be a guess.
 */
final class Durations {
  private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private Durations() {}

  static Duration parse(String text) {
    String t = text == null ? "" : text.strip();
    Matcher m = SHORT.matcher(t);
    if (m.matches()) {
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        case "h" -> Duration.ofHours(n);
        default -> Duration.ofDays(n);
      };
    }
    try {
      return Duration.parse(t);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "'" + text + "' is not a duration with a unit (e.g. 500ms, 30s, 15m, 1h, 7d or PT15M)");
    }
  }
}
