package org.meterstore.api.reading;

import java.time.Instant;
import java.time.YearMonth;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.id.MarketPartnerId;

/**
 * The scope within which versions of one reading compete: the network operator that assigns them
 * and the balancing month of the interval, written {@code <13-digit partner id>:<YYYY-MM>}.
 *
 * @param operator the network operator's market-partner id
 * @param month the balancing month (for gas, months start at 06:00 local time on the 1st)
 */
public record VersionScope(MarketPartnerId operator, YearMonth month) {
  private static final Pattern MONTH = Pattern.compile("[0-9]{4}-[0-9]{2}");

  /** Checks that both parts are present. */
  public VersionScope {
    if (operator == null) {
      throw MeterStoreException.invalid("version_scope", null, "an operator id is required");
    }
    if (month == null) {
      throw MeterStoreException.invalid("version_scope", operator, "a balancing month is required");
    }
  }

  /**
   * Parses {@code <13-digit partner id>:<YYYY-MM>}, for example {@code 9900000000003:2026-03}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for any other shape
   */
  public static VersionScope parse(String text) {
    String rule = "<13-digit market partner id>:<YYYY-MM>";
    if (text == null) {
      throw MeterStoreException.invalid("version_scope", null, rule);
    }
    String trimmed = text.trim();
    int colon = trimmed.indexOf(':');
    if (colon < 0 || !MONTH.matcher(trimmed).region(colon + 1, trimmed.length()).matches()) {
      throw MeterStoreException.invalid("version_scope", text, rule);
    }
    try {
      return new VersionScope(
          MarketPartnerId.parse(trimmed.substring(0, colon)),
          YearMonth.parse(trimmed.substring(colon + 1)));
    } catch (DateTimeParseException | MeterStoreException e) {
      throw MeterStoreException.invalid("version_scope", text, rule);
    }
  }

  /** The scope of {@code operator} for the balancing month that {@code from} belongs to. */
  public static VersionScope of(MarketPartnerId operator, Instant from, Commodity commodity) {
    return new VersionScope(operator, MeteringCalendar.balancingMonth(from, commodity));
  }

  /**
   * Whether this scope's balancing month contains the whole interval {@code [from, to)} of the
   * given commodity ({@code to} may be null for a point reading).
   */
  public boolean covers(Instant from, Instant to, Commodity commodity) {
    Instant start = MeteringCalendar.monthStart(month, commodity);
    Instant end = MeteringCalendar.monthEnd(month, commodity);
    boolean fromInside = !from.isBefore(start) && from.isBefore(end);
    return fromInside && (to == null || !to.isAfter(end));
  }

  /**
   * Refuses an interval this scope does not cover.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the scope, the interval and the rule
   */
  public void requireCovers(Instant from, Instant to, Commodity commodity) {
    if (!covers(from, to, commodity)) {
      throw MeterStoreException.invalid(
          "version_scope",
          this,
          "its balancing month does not cover the "
              + commodity
              + " interval ["
              + from
              + ", "
              + (to == null ? "" : to)
              + ")");
    }
  }

  @Override
  public String toString() {
    return operator + ":" + month;
  }
}
