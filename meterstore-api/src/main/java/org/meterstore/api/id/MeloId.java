package org.meterstore.api.id;

import org.meterstore.api.MeterStoreException;

/**
 * A metering location id (Messlokations-ID, formerly Zählpunktbezeichnung): 33 characters, a
 * two-letter country code followed by 31 letters or digits, e.g. {@code
 * DE0001234567890123456789012345678}. It has no check digit.
 *
 * <p>Immutable and thread-safe. {@link #value()} and {@link #toString()} return the canonical form:
 * ASCII upper case, no whitespace.
 *
 * @param value the canonical 33 characters; never null
 */
public record MeloId(String value) {
  private static final String FIELD = "MeLo-ID";
  private static final int LENGTH = 33;
  private static final String CHARACTERS = "a 2-letter country code, then 31 letters or digits";

  /**
   * Accepts only the canonical form; use {@link #parse(String)} for text with spaces or lower case.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code value} is null or breaks a rule
   */
  public MeloId {
    check(value, value);
  }

  /**
   * Parses a MeLo-ID written the way people write it: whitespace anywhere is dropped (ids are often
   * printed in groups) and ASCII letters are upper-cased. Any other character, such as the dots of
   * the Austrian notation, is refused.
   *
   * @param text the id as written; may be null, which is refused
   * @return the id in canonical form
   * @throws MeterStoreException {@code INVALID_INPUT} naming the text and the broken rule
   */
  public static MeloId parse(String text) {
    if (text == null) {
      throw MeterStoreException.invalid(FIELD, null, "33 characters: " + CHARACTERS);
    }
    String canonical = canonical(text);
    check(text, canonical);
    return new MeloId(canonical);
  }

  /** The country code, the first two letters, e.g. {@code DE}. */
  public String countryCode() {
    return value.substring(0, 2);
  }

  /** The canonical 33 characters. */
  @Override
  public String toString() {
    return value;
  }

  /** Drops whitespace and upper-cases ASCII letters only, so no other letter can become ASCII. */
  private static String canonical(String text) {
    StringBuilder canonical = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        continue;
      }
      canonical.append(c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c);
    }
    return canonical.toString();
  }

  private static void check(String shown, String candidate) {
    if (candidate == null || candidate.length() != LENGTH) {
      String found = candidate == null ? "" : ", found " + candidate.length();
      throw MeterStoreException.invalid(FIELD, shown, "33 characters without whitespace" + found);
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = candidate.charAt(i);
      boolean letter = c >= 'A' && c <= 'Z';
      boolean digit = c >= '0' && c <= '9';
      if (!(letter || (i >= 2 && digit))) {
        throw MeterStoreException.invalid(FIELD, shown, CHARACTERS + " in upper case");
      }
    }
  }
}
