package org.meterstore.api.id;

import org.meterstore.api.MeterStoreException;

/**
 * A market location id (Marktlokations-ID, MaLo-ID): eleven ASCII digits, the first 1–9, the last a
 * check digit per the BDEW procedure (digits at odd positions once, at even positions twice, topped
 * up to the next multiple of ten), e.g. {@code 51238696781}.
 *
 * <p>Immutable and thread-safe. {@link #value()} and {@link #toString()} return the canonical form:
 * the eleven digits, nothing else.
 *
 * @param value the canonical eleven digits; never null
 */
public record MaloId(String value) {
  private static final String FIELD = "MaLo-ID";
  private static final int LENGTH = 11;

  /**
   * Accepts only the canonical form; use {@link #parse(String)} for text with surrounding
   * whitespace.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code value} is null or breaks a rule
   */
  public MaloId {
    check(value, value);
  }

  /**
   * Parses a MaLo-ID, ignoring surrounding whitespace; nothing else is corrected.
   *
   * @param text the id as written; may be null, which is refused
   * @return the id in canonical form
   * @throws MeterStoreException {@code INVALID_INPUT} naming the text and the broken rule: not
   *     exactly 11 digits, a leading 0, or a wrong check digit
   */
  public static MaloId parse(String text) {
    if (text == null) {
      throw MeterStoreException.invalid(FIELD, null, "exactly 11 digits");
    }
    String canonical = text.strip();
    check(text, canonical);
    return new MaloId(canonical);
  }

  /** The canonical eleven digits. */
  @Override
  public String toString() {
    return value;
  }

  private static void check(String shown, String candidate) {
    if (candidate == null || candidate.length() != LENGTH || !CheckDigits.allDigits(candidate)) {
      throw MeterStoreException.invalid(FIELD, shown, "exactly 11 digits");
    }
    if (candidate.charAt(0) == '0') {
      throw MeterStoreException.invalid(FIELD, shown, "11 digits, the first 1-9");
    }
    int expected = CheckDigits.bdew(candidate, LENGTH - 1);
    if (candidate.charAt(LENGTH - 1) - '0' != expected) {
      throw MeterStoreException.invalid(
          FIELD, shown, "11 digits, check digit " + expected + " expected");
    }
  }
}
