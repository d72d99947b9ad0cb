package org.meterstore.config;

import java.time.Duration;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations, periods and sizes as the configuration file writes them: always with a unit, because a
 * bare {@code 3} is the most common misreading in operations ("3 what?").
 *
 * <ul>
 *   <li>Durations: one or more {@code <whole number><unit>} parts, units {@code ms}, {@code s},
 *       {@code m} or {@code min}, {@code h}, {@code d} ({@code "500ms"}, {@code "3s"}, {@code
 *       "1h30m"}, {@code "45d"}); or ISO-8601 ({@code "PT15M"}, {@code "P1D"}).
 *   <li>Periods (calendar lengths): parts with units {@code y}, {@code mo}, {@code w}, {@code d}
 *       ({@code "10y"}, {@code "18mo"}); or ISO-8601 ({@code "P10Y"}).
 *   <li>Sizes: {@code <whole number><unit>}, units {@code B}, {@code KiB}, {@code MiB}, {@code GiB}
 *       ({@code "128MiB"}).
 * </ul>
 *
 * Each parser returns null for text it cannot read; the caller names key and rule. The command line
 * reads its duration options with the same grammar ({@link #parseDuration}), so {@code --interval
 * 1h30m} means what {@code "1h30m"} means in the file.
 */
public final class Units {
  private static final Pattern PART = Pattern.compile("(\\d{1,12})([a-zA-Z]+)");
  private static final Pattern PARTS = Pattern.compile("(\\d{1,12}[a-zA-Z]+)+");

  /** The duration grammar in one line, for error messages. */
  public static final String DURATION_RULE =
      "a duration with a unit: e.g. \"500ms\", \"3s\", \"15m\", \"1h30m\", \"45d\" or ISO-8601"
          + " \"PT15M\"";

  static final String PERIOD_RULE =
      "a calendar period with a unit: e.g. \"10y\", \"18mo\", \"2w\", \"30d\" or ISO-8601 \"P10Y\"";
  static final String SIZE_RULE = "a size with a unit: e.g. \"128MiB\", \"512KiB\", \"1GiB\"";

  private Units() {}

  /**
   * The duration {@code text} denotes in the configuration file's grammar ({@link #DURATION_RULE}),
   * or empty when it is not one (a bare number, an unknown unit, a negative ISO duration).
   */
  public static java.util.Optional<Duration> parseDuration(String text) {
    return java.util.Optional.ofNullable(text == null ? null : duration(text));
  }

  /** The duration {@code text} denotes, or null when it is not a duration with units. */
  static Duration duration(String text) {
    String t = text.trim();
    if (t.startsWith("P") || t.startsWith("p")) {
      try {
        Duration d = Duration.parse(t.toUpperCase(Locale.ROOT));
        return d.isNegative() ? null : d;
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    if (!PARTS.matcher(t).matches()) {
      return null;
    }
    Duration total = Duration.ZERO;
    Matcher m = PART.matcher(t);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      Duration part =
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m", "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> null;
          };
      if (part == null) {
        return null;
      }
      try {
        total = total.plus(part);
      } catch (ArithmeticException overflow) {
        return null;
      }
    }
    return total;
  }

  /** The period {@code text} denotes, or null. */
  static Period period(String text) {
    String t = text.trim();
    if (t.startsWith("P") || t.startsWith("p")) {
      try {
        Period p = Period.parse(t.toUpperCase(Locale.ROOT));
        return p.isNegative() ? null : p;
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    if (!PARTS.matcher(t).matches()) {
      return null;
    }
    Period total = Period.ZERO;
    Matcher m = PART.matcher(t);
    while (m.find()) {
      int n;
      try {
        n = Math.toIntExact(Long.parseLong(m.group(1)));
      } catch (ArithmeticException e) {
        return null;
      }
      Period part =
          switch (m.group(2)) {
            case "y" -> Period.ofYears(n);
            case "mo" -> Period.ofMonths(n);
            case "w" -> Period.ofWeeks(n);
            case "d" -> Period.ofDays(n);
            default -> null;
          };
      if (part == null) {
        return null;
      }
      try {
        total = total.plus(part);
      } catch (ArithmeticException overflow) {
        return null;
      }
    }
    return total;
  }

  /** The number of bytes {@code text} denotes, or -1. */
  static long bytes(String text) {
    Matcher m = PART.matcher(text.trim());
    if (!m.matches()) {
      return -1;
    }
    long n = Long.parseLong(m.group(1));
    long unit =
        switch (m.group(2)) {
          case "B" -> 1L;
          case "KiB" -> 1024L;
          case "MiB" -> 1024L * 1024;
          case "GiB" -> 1024L * 1024 * 1024;
          default -> -1L;
        };
    if (unit < 0) {
      return -1;
    }
    try {
      return Math.multiplyExact(n, unit);
    } catch (ArithmeticException e) {
      return -1;
    }
  }
}
