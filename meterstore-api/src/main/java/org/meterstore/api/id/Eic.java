package org.meterstore.api.id;

import org.meterstore.api.MeterStoreException;

/**
 * An ENTSO-E Energy Identification Code: 16 characters, a two-digit issuing office, an object-type
 * letter (X party, Y area, Z measurement point, V location, W resource, T tie line, A substation),
 * twelve characters of {@code A-Z}, {@code 0-9} or {@code -}, and a check character, e.g. {@code
 * 10YDE-RWENET---I} (the Amprion control area) or {@code 10Y1001A1001A83F} (Germany).
 *
 * <p>The check character is enforced: the 15 characters before it, valued 0–9, A–Z as 10–35 and
 * {@code -} as 36 and weighted 16 down to 2, give {@code 36 - ((sum - 1) mod 37)}, whose character
 * must end the code. A result of 36 ({@code -}) means no valid code has that prefix.
 *
 * <p>Immutable and thread-safe. {@link #value()} and {@link #toString()} return the canonical form:
 * the 16 characters in ASCII upper case.
 *
 * @param value the canonical 16 characters; never null
 */
public record Eic(String value) {
  private static final String FIELD = "EIC";
  private static final int LENGTH = 16;

  /**
   * Accepts only the canonical form; use {@link #parse(String)} for lower case or surrounding
   * whitespace.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code value} is null or breaks a rule
   */
  public Eic {
    check(value, value);
  }

  /**
   * Parses an EIC, ignoring surrounding whitespace and upper-casing ASCII letters; nothing else is
   * corrected.
   *
   * @param text the code as written; may be null, which is refused
   * @return the code in canonical form
   * @throws MeterStoreException {@code INVALID_INPUT} naming the text and the broken rule: length,
   *     a character out of place, or a wrong check character
   */
  public static Eic parse(String text) {
    if (text == null) {
      throw MeterStoreException.invalid(FIELD, null, "exactly 16 characters");
    }
    String canonical = upperAscii(text.strip());
    check(text, canonical);
    return new Eic(canonical);
  }

  /** The two-digit code of the issuing office, e.g. {@code 10} for ENTSO-E, {@code 11} for BDEW. */
  public String issuingOffice() {
    return value.substring(0, 2);
  }

  /** The object-type letter, e.g. {@code X} for a party, {@code Y} for an area. */
  public char objectType() {
    return value.charAt(2);
  }

  /** The canonical 16 characters. */
  @Override
  public String toString() {
    return value;
  }

  private static String upperAscii(String text) {
    char[] chars = text.toCharArray();
    for (int i = 0; i < chars.length; i++) {
      if (chars[i] >= 'a' && chars[i] <= 'z') {
        chars[i] = (char) (chars[i] - 'a' + 'A');
      }
    }
    return new String(chars);
  }

  private static void check(String shown, String candidate) {
    if (candidate == null || candidate.length() != LENGTH) {
      throw MeterStoreException.invalid(FIELD, shown, "exactly 16 characters");
    }
    if (!isDigit(candidate.charAt(0)) || !isDigit(candidate.charAt(1))) {
      throw MeterStoreException.invalid(
          FIELD, shown, "characters 1-2 are the issuing office's two digits");
    }
    if (!isLetter(candidate.charAt(2))) {
      throw MeterStoreException.invalid(FIELD, shown, "character 3 is the object-type letter A-Z");
    }
    for (int i = 3; i < LENGTH - 1; i++) {
      char c = candidate.charAt(i);
      if (!isLetter(c) && !isDigit(c) && c != '-') {
        throw MeterStoreException.invalid(FIELD, shown, "characters 4-15 are A-Z, 0-9 or '-'");
      }
    }
    char actual = candidate.charAt(LENGTH - 1);
    if (!isLetter(actual) && !isDigit(actual)) {
      throw MeterStoreException.invalid(
          FIELD, shown, "character 16 is a check letter or digit, never '-'");
    }
    char expected = CheckDigits.eic(candidate);
    if (expected == '-') {
      throw MeterStoreException.invalid(
          FIELD, shown, "no check character fits: the first 15 characters give '-', never valid");
    }
    if (actual != expected) {
      throw MeterStoreException.invalid(FIELD, shown, "check character " + expected + " expected");
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLetter(char c) {
    return c >= 'A' && c <= 'Z';
  }
}
