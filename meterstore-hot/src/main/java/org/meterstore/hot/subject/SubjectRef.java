package org.meterstore.hot.subject;

import java.time.Year;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.meterstore.api.MeterStoreException;

/**
 * A pseudonymous subject reference: what a reading carries instead of a person's identifier. One
 * reference stands for one person in one collection year, for example {@code
 * s2025_Qm9zY2hLb2NoUGFyYWRpZQ}: {@code s}, the four-digit collection year, {@code _}, then 22
 * base64url characters (128 bits from a CSPRNG). URL-safe, unguessable, and meaningless once the
 * registry's mapping is erased. Safe to log: it is not the natural identifier.
 *
 * @param value the canonical text
 */
public record SubjectRef(String value) {
  private static final Pattern FORMAT = Pattern.compile("s([0-9]{4})_[A-Za-z0-9_-]{22}");

  /** Checks the format and the year (1970 to 9000). */
  public SubjectRef {
    Matcher m = value == null ? null : FORMAT.matcher(value);
    if (m == null || !m.matches()) {
      throw MeterStoreException.invalid(
          "subject reference", value, "s<year>_ followed by 22 base64url characters");
    }
    int year = Integer.parseInt(m.group(1));
    if (year < 1970 || year > 9000) {
      throw MeterStoreException.invalid("subject reference", value, "a year from 1970 to 9000");
    }
  }

  /**
   * Parses a reference.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for anything but a canonical reference
   */
  public static SubjectRef parse(String text) {
    return new SubjectRef(text);
  }

  /** The collection (balancing) year, Europe/Berlin, this reference was issued for. */
  public Year year() {
    return Year.of(Integer.parseInt(value.substring(1, 5)));
  }

  @Override
  public String toString() {
    return value;
  }
}
