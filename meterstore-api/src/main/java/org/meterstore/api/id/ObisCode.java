package org.meterstore.api.id;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.meterstore.api.MeterStoreException;

/**
 * An OBIS code (IEC 62056-61) naming a measured channel, stored as its value groups A to E, each
 * 0–255, e.g. {@code 1-0:1.8.0} (electricity, active energy import) or {@code 7-0:3.0.0} (gas,
 * volume).
 *
 * <p>Group F (the billing period) is not kept: readings are current values, for which F is 255, and
 * {@link #parse(String)} refuses any other F rather than silently dropping it.
 *
 * <p>Immutable and thread-safe. {@link #toString()} returns the canonical form {@code A-B:C.D.E} in
 * decimal without leading zeros.
 *
 * @param a group A, the medium (1 electricity, 6 heat, 7 gas, 8 and 9 water …); 0–255
 * @param b group B, the channel; 0–255
 * @param c group C, the physical quantity (1 active power import, 2 export …); 0–255
 * @param d group D, the processing (8 time integral …); 0–255
 * @param e group E, the tariff or further classification; 0–255
 */
public record ObisCode(int a, int b, int c, int d, int e) {
  private static final String FIELD = "OBIS code";
  private static final String SPELLINGS =
      "A-B:C.D.E, A-B:C.D.E*255, A.B.C.D.E.255 or 12 hex digits, each group 0..255";
  private static final Pattern IEC =
      Pattern.compile("(\\d+)-(\\d+):(\\d+)\\.(\\d+)\\.(\\d+)(?:\\*(\\d+))?");
  private static final Pattern DOTTED =
      Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)");
  private static final Pattern HEX = Pattern.compile("\\p{XDigit}{12}");
  private static final Pattern SHORT = Pattern.compile("\\d+(?:\\.\\d+){1,2}(?:\\*\\d+)?");
  private static final String[] NAMES = {"A", "B", "C", "D", "E", "F"};
  private static final int CURRENT_VALUE = 255;

  /**
   * Creates the code from its groups.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} if a group is outside 0–255
   */
  public ObisCode {
    int[] groups = {a, b, c, d, e};
    for (int i = 0; i < groups.length; i++) {
      if (groups[i] < 0 || groups[i] > 255) {
        String shown = a + "-" + b + ":" + c + "." + d + "." + e;
        throw MeterStoreException.invalid(FIELD, shown, outOfRange(i, groups[i]));
      }
    }
  }

  /**
   * Parses the usual spellings, ignoring surrounding whitespace: {@code 1-0:1.8.0}, {@code
   * 1-0:1.8.0*255}, the dotted six-group form {@code 1.0.1.8.0.255} and twelve hex digits {@code
   * 0100010800FF} (the six bytes A to F, either case). Leading zeros in decimal groups are allowed.
   *
   * <p>Short forms such as {@code 1.8.0} are refused: they leave out medium and channel, and
   * guessing {@code 1-0} would file a gas or second-channel reading under the wrong code.
   *
   * @param text the code as written; may be null, which is refused
   * @return the code
   * @throws MeterStoreException {@code INVALID_INPUT} naming the text and the broken rule: an
   *     unknown spelling, a short form, a group outside 0–255, or an F group other than 255
   */
  public static ObisCode parse(String text) {
    if (text == null) {
      throw MeterStoreException.invalid(FIELD, null, SPELLINGS);
    }
    String trimmed = text.strip();
    int[] groups = groups(text, trimmed);
    for (int i = 0; i < groups.length; i++) {
      if (groups[i] > 255) {
        throw MeterStoreException.invalid(FIELD, text, outOfRange(i, groups[i]));
      }
    }
    if (groups.length == 6 && groups[5] != CURRENT_VALUE) {
      throw MeterStoreException.invalid(
          FIELD,
          text,
          "F group "
              + groups[5]
              + " is not supported: only 255, the current value, is stored as A-B:C.D.E");
    }
    return new ObisCode(groups[0], groups[1], groups[2], groups[3], groups[4]);
  }

  /** Group A, the medium: 1 electricity, 6 heat, 7 gas, 8 and 9 water, 0 abstract. */
  public int medium() {
    return a;
  }

  /**
   * Whether this is electricity active energy or power imported from the grid (+A): A = 1 and C =
   * 1, summed over all phases. Per-phase quantities (C = 21, 41, 61) do not count.
   */
  public boolean isImport() {
    return a == 1 && c == 1;
  }

  /**
   * Whether this is electricity active energy or power exported to the grid (−A): A = 1 and C = 2,
   * summed over all phases. Per-phase quantities (C = 22, 42, 62) do not count.
   */
  public boolean isExport() {
    return a == 1 && c == 2;
  }

  /** The canonical form {@code A-B:C.D.E}, e.g. {@code 1-0:1.8.0}. */
  @Override
  public String toString() {
    return a + "-" + b + ":" + c + "." + d + "." + e;
  }

  /** The groups of a known spelling, five or six of them, each at least 0 (maybe above 255). */
  private static int[] groups(String text, String trimmed) {
    Matcher iec = IEC.matcher(trimmed);
    if (iec.matches()) {
      return decimal(iec, iec.group(6) == null ? 5 : 6);
    }
    Matcher dotted = DOTTED.matcher(trimmed);
    if (dotted.matches()) {
      return decimal(dotted, 6);
    }
    if (HEX.matcher(trimmed).matches()) {
      int[] groups = new int[6];
      for (int i = 0; i < 6; i++) {
        groups[i] = Integer.parseInt(trimmed.substring(2 * i, 2 * i + 2), 16);
      }
      return groups;
    }
    if (SHORT.matcher(trimmed).matches()) {
      throw MeterStoreException.invalid(
          FIELD, text, "short form without medium and channel; write A-B:C.D.E, e.g. 1-0:1.8.0");
    }
    throw MeterStoreException.invalid(FIELD, text, SPELLINGS);
  }

  private static int[] decimal(Matcher matcher, int count) {
    int[] groups = new int[count];
    for (int i = 0; i < count; i++) {
      groups[i] = decimalGroup(matcher.group(i + 1));
    }
    return groups;
  }

  /** A run of ASCII digits as a number, capped at 256 so that long runs cannot overflow. */
  private static int decimalGroup(String digits) {
    int value = 0;
    for (int i = 0; i < digits.length(); i++) {
      value = Math.min(256, value * 10 + (digits.charAt(i) - '0'));
    }
    return value;
  }

  private static String outOfRange(int index, int value) {
    String found = value > 255 ? "above 255" : Integer.toString(value);
    return "group " + NAMES[index] + " is " + found + "; every group is 0..255";
  }
}
