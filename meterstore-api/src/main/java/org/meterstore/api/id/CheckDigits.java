package org.meterstore.api.id;

/**
 * The check-digit procedures behind the identifiers, kept apart so that each is written once and
 * tested against published examples on its own.
 *
 * <p>The BDEW procedure (BDEW-Anwendungshilfe "Identifikatoren in der Marktkommunikation", § 8.1)
 * serves MaLo-IDs and BDEW/DVGW code numbers; GS1 mod 10 serves GLNs; ENTSO-E's mod 37 serves EICs.
 * Callers pass ASCII digits or EIC characters only: the records check the character set first.
 */
final class CheckDigits {
  /** The EIC alphabet in value order: {@code 0}–{@code 9} are 0–9, A–Z 10–35, {@code -} 36. */
  private static final String EIC_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-";

  private CheckDigits() {}

  /** Whether every character is an ASCII digit ({@link Character#isDigit} also admits others). */
  static boolean allDigits(CharSequence text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * The BDEW check digit over the first {@code length} digits: digits at odd positions (1-based,
   * from the left) count once, at even positions twice; the check digit tops the sum up to the next
   * multiple of ten.
   */
  static int bdew(CharSequence digits, int length) {
    int sum = 0;
    for (int i = 0; i < length; i++) {
      int digit = digits.charAt(i) - '0';
      sum += (i % 2 == 0) ? digit : 2 * digit;
    }
    return (10 - sum % 10) % 10;
  }

  /**
   * The GS1 mod-10 check digit over the first {@code length} digits: weights 3 and 1 alternate from
   * the right, starting with 3 next to the check digit (for a 13-digit GLN: 1, 3, 1, … from the
   * left).
   */
  static int gs1(CharSequence digits, int length) {
    int sum = 0;
    for (int i = 0; i < length; i++) {
      int digit = digits.charAt(i) - '0';
      boolean weightThree = (length - 1 - i) % 2 == 0;
      sum += weightThree ? 3 * digit : digit;
    }
    return (10 - sum % 10) % 10;
  }

  /**
   * The ENTSO-E check character for the first 15 characters of an EIC: values weighted 16 down to
   * 2, then {@code 36 - ((sum - 1) mod 37)} mapped back to a character. The result may be {@code
   * '-'}, which the EIC reference manual does not allow as a check character: no valid EIC has such
   * a prefix.
   */
  static char eic(CharSequence code) {
    int sum = 0;
    for (int i = 0; i < 15; i++) {
      sum += EIC_ALPHABET.indexOf(code.charAt(i)) * (16 - i);
    }
    return EIC_ALPHABET.charAt(36 - (sum - 1) % 37);
  }
}
