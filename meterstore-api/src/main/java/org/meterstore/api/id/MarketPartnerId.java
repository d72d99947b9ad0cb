package org.meterstore.api.id;

import org.meterstore.api.MeterStoreException;

/**
 * A market partner id (Marktpartner-ID): the 13-digit code of a market participant in one role, a
 * BDEW code number (electricity, prefix {@code 99}), a DVGW code number (gas, prefix {@code 98}) or
 * a GS1 Global Location Number (GLN). A network operator's id is the first half of a version scope
 * {@code <id>:<YYYY-MM>}.
 *
 * <p>The check digit is reported by {@link #hasValidCheckDigit()}, not enforced: codes are issued
 * by three bodies with two different procedures, and refusing a code its operator really uses would
 * refuse that operator's deliveries.
 *
 * <p>Immutable and thread-safe. {@link #value()} and {@link #toString()} return the canonical form:
 * the thirteen digits, nothing else.
 *
 * @param value the canonical thirteen digits; never null
 */
public record MarketPartnerId(String value) {
  private static final String FIELD = "market partner ID";
  private static final String RULE = "exactly 13 digits";
  private static final int LENGTH = 13;

  /**
   * Accepts only the canonical form; use {@link #parse(String)} for text with surrounding
   * whitespace.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if {@code value} is null or not 13 digits
   */
  public MarketPartnerId {
    if (value == null || value.length() != LENGTH || !CheckDigits.allDigits(value)) {
      throw MeterStoreException.invalid(FIELD, value, RULE);
    }
  }

  /**
   * Parses a market partner id, ignoring surrounding whitespace; nothing else is corrected. The
   * check digit is not examined.
   *
   * @param text the id as written; may be null, which is refused
   * @return the id in canonical form
   * @throws MeterStoreException {@code INVALID_INPUT} naming the text if it is not 13 digits
   */
  public static MarketPartnerId parse(String text) {
    String canonical = text == null ? null : text.strip();
    if (canonical == null || canonical.length() != LENGTH || !CheckDigits.allDigits(canonical)) {
      throw MeterStoreException.invalid(FIELD, text, RULE);
    }
    return new MarketPartnerId(canonical);
  }

  /**
   * Whether the last digit is the check digit of the procedure its issuer uses. BDEW and DVGW code
   * numbers (prefix {@code 99} or {@code 98}, prefixes GS1 never assigns to a GLN) must carry the
   * BDEW digit: digits at odd positions once, at even positions twice, topped up to the next
   * multiple of ten. Any other id may be a GLN, with the GS1 mod-10 digit (weights 1, 3, 1, … from
   * the left), or an older BDEW code number, so either digit is accepted.
   */
  public boolean hasValidCheckDigit() {
    int actual = value.charAt(LENGTH - 1) - '0';
    boolean bdew = actual == CheckDigits.bdew(value, LENGTH - 1);
    if (value.startsWith("99") || value.startsWith("98")) {
      return bdew;
    }
    return bdew || actual == CheckDigits.gs1(value, LENGTH - 1);
  }

  /** The canonical thirteen digits. */
  @Override
  public String toString() {
    return value;
  }
}
