package org.meterstore.api.calendar;

import java.time.Duration;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import org.meterstore.api.MeterStoreException;

/**
 * The length of the interval a reading covers, as a canonical ISO-8601 duration (the {@code
 * resolution} column).
 *
 * <p>Three kinds exist:
 *
 * <ul>
 *   <li><b>sub-daily</b>: any positive whole number of seconds that divides a day exactly, from
 *       {@code PT1S} to {@code PT12H} ({@code PT15M}, {@code PT1H}, {@code PT1H30M} …). Its length
 *       is fixed: {@link #fixedLength()} is present.
 *   <li><b>daily</b>: {@link #P1D}, one balancing day. Not a fixed length: a local day lasts 23, 24
 *       or 25 hours.
 *   <li><b>calendar</b>: {@link #P1M} and {@link #P1Y}, one balancing month or year; {@link
 *       #isCalendar()} is true.
 * </ul>
 *
 * <p>The canonical form names the duration with the largest units that represent it exactly, as
 * {@link Duration#toString()} does: {@code PT900S} becomes {@code PT15M}, {@code PT60S} becomes
 * {@code PT1M}, {@code PT5400S} becomes {@code PT1H30M}; {@code PT24H} becomes {@code P1D} and
 * {@code P12M} becomes {@code P1Y}. Two resolutions are equal exactly when their canonical forms
 * are. Instances are immutable and thread-safe.
 *
 * @param iso the canonical ISO-8601 text, never null; the constructor accepts any accepted spelling
 *     and stores its canonical form
 */
public record Resolution(String iso) {
  private static final long SECONDS_PER_DAY = 86_400;

  /** The lengths of the usual resolutions, so that the write path does not parse them per row. */
  private static final java.util.Map<String, Duration> COMMON_LENGTHS =
      java.util.Map.of(
          "PT1M", Duration.ofMinutes(1),
          "PT5M", Duration.ofMinutes(5),
          "PT10M", Duration.ofMinutes(10),
          "PT15M", Duration.ofMinutes(15),
          "PT30M", Duration.ofMinutes(30),
          "PT1H", Duration.ofHours(1));

  private static final String RULE =
      "a positive ISO-8601 duration of whole seconds that divides a day exactly, P1D, P1M or P1Y";

  /** A quarter of an hour, the usual load-profile resolution. */
  public static final Resolution PT15M = new Resolution("PT15M");

  /** One hour. */
  public static final Resolution PT1H = new Resolution("PT1H");

  /** One balancing day (23, 24 or 25 hours). */
  public static final Resolution P1D = new Resolution("P1D");

  /** One balancing month. */
  public static final Resolution P1M = new Resolution("P1M");

  /** One balancing year. */
  public static final Resolution P1Y = new Resolution("P1Y");

  /**
   * Validates {@code iso} and stores its canonical form.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code iso} is null or not an accepted
   *     resolution
   */
  public Resolution {
    iso = canonical(iso);
  }

  /**
   * Parses a resolution, case-insensitively and ignoring surrounding whitespace ({@code pt15m},
   * {@code PT900S} and {@code PT15M} are the same resolution).
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code text} is null, not an ISO-8601
   *     duration, not positive, has a fraction of a second, does not divide a day, or is a calendar
   *     period other than one month or one year
   */
  public static Resolution parse(String text) {
    return new Resolution(text);
  }

  /** Whether this is {@link #P1M} or {@link #P1Y}, which have no fixed length in days. */
  public boolean isCalendar() {
    return iso.equals("P1M") || iso.equals("P1Y");
  }

  /** Whether this is shorter than a day, i.e. has a {@link #fixedLength()}. */
  public boolean isSubDaily() {
    return !isCalendar() && !iso.equals("P1D");
  }

  /**
   * Whether this resolution divides an hour ({@code PT1S} … {@code PT1H}). Its grid is then the
   * same for every commodity and every day: Berlin's offsets from UTC and the starts of both
   * calendar and gas days are whole hours, so the grid is simply the UTC multiples of the
   * resolution, and no interval on it crosses a day's start. Longer resolutions ({@code PT2H} …
   * {@code PT12H}, {@code P1D}, {@code P1M}, {@code P1Y}) count from the balancing day's start,
   * which is midnight for most commodities but 06:00 for gas.
   */
  public boolean dividesAnHour() {
    return hourDivisorSeconds() > 0;
  }

  /**
   * The length in seconds when this resolution divides an hour, else 0. The usual resolutions are
   * answered without a look-up: every reading's alignment asks.
   */
  long hourDivisorSeconds() {
    switch (iso) {
      case "PT15M":
        return 900;
      case "PT1H":
        return 3600;
      case "PT5M":
        return 300;
      case "PT30M":
        return 1800;
      case "PT1M":
        return 60;
      case "PT10M":
        return 600;
      default:
        long seconds = fixedLength().map(Duration::getSeconds).orElse(0L);
        return seconds > 0 && 3600 % seconds == 0 ? seconds : 0;
    }
  }

  /**
   * The exact length of one interval, present only for sub-daily resolutions. Empty for {@link
   * #P1D} (a local day lasts 23 to 25 hours), {@link #P1M} and {@link #P1Y}.
   */
  public Optional<Duration> fixedLength() {
    if (!isSubDaily()) {
      return Optional.empty();
    }
    Duration common = COMMON_LENGTHS.get(iso);
    return Optional.of(common != null ? common : Duration.parse(iso));
  }

  /** The canonical ISO-8601 text, e.g. {@code PT15M}. */
  @Override
  public String toString() {
    return iso;
  }

  private static String canonical(String text) {
    if (text == null) {
      throw MeterStoreException.invalid("resolution", null, RULE);
    }
    String upper = text.trim().toUpperCase(Locale.ROOT);
    // java.time accepts signed parts ("PT1H-45M"); a resolution has none.
    boolean signed = upper.indexOf('-') >= 0;
    Optional<Duration> duration = parseDuration(upper);
    Optional<Period> period = duration.isPresent() ? Optional.empty() : parsePeriod(upper);
    boolean notPositive = duration.map(d -> d.isZero() || d.isNegative()).orElse(false);
    if ((duration.isPresent() || period.isPresent()) && (signed || notPositive)) {
      throw MeterStoreException.invalid("resolution", text, "must be positive");
    }
    if (duration.isPresent()) {
      return canonicalDuration(text, duration.get());
    }
    if (period.isPresent() && period.get().getDays() == 0) {
      long months = period.get().toTotalMonths();
      if (months == 1) {
        return "P1M";
      }
      if (months == 12) {
        return "P1Y";
      }
    }
    throw MeterStoreException.invalid("resolution", text, RULE);
  }

  private static String canonicalDuration(String text, Duration duration) {
    if (duration.getNano() != 0) {
      throw MeterStoreException.invalid("resolution", text, "must be whole seconds");
    }
    long seconds = duration.getSeconds();
    if (seconds == SECONDS_PER_DAY) {
      return "P1D";
    }
    if (seconds > SECONDS_PER_DAY || SECONDS_PER_DAY % seconds != 0) {
      throw MeterStoreException.invalid("resolution", text, "must divide a day exactly");
    }
    return duration.toString();
  }

  private static Optional<Duration> parseDuration(String upper) {
    try {
      return Optional.of(Duration.parse(upper));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private static Optional<Period> parsePeriod(String upper) {
    try {
      return Optional.of(Period.parse(upper));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
