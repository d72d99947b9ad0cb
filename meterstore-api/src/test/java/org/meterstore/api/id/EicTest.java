package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertRefused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Samples;

class EicTest {
  private static final String FIELD = "EIC";
  private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  /** Codes published by ENTSO-E and the German TSOs (areas, parties, balance groups). */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "10YDE-RWENET---I", // Amprion control area
        "10YDE-EON------1", // TenneT DE control area
        "10YDE-VE-------2", // 50Hertz control area
        "10YDE-ENBW-----N", // TransnetBW control area
        "10Y1001A1001A83F", // Germany
        "10Y1001A1001A82H", // bidding zone DE-LU
        "10YCB-GERMANY--8", // German control block
        "10YAT-APG------L", // APG control area (Austria)
        "10X1001A1001A450", // a party issued by ENTSO-E
        "11XRWEWWE-8001H3", // a balance group issued by BDEW
        "22XWATTPLUS----G" // a party issued by Elia
      })
  void acceptsPublishedCodes(String text) {
    Eic eic = Eic.parse(text);

    assertThat(eic.value()).isEqualTo(text);
    assertThat(eic).hasToString(text).isEqualTo(new Eic(text));
  }

  @Test
  void upperCasesAndIgnoresSurroundingWhitespace() {
    Eic eic = Eic.parse("  10yde-rwenet---i\t");

    assertThat(eic.value()).isEqualTo("10YDE-RWENET---I");
    assertThat(eic.issuingOffice()).isEqualTo("10");
    assertThat(eic.objectType()).isEqualTo('Y');
  }

  @Test
  void refusesAWrongCheckCharacter() {
    assertRefused(
        () -> Eic.parse("10YDE-RWENET---J"),
        FIELD,
        "10YDE-RWENET---J",
        "check character I expected");
  }

  @Test
  void refusesAHyphenAsCheckCharacterEvenWhenTheArithmeticGivesIt() {
    // the weighted sum of 23X--130302DLGW gives 36, the value of '-'
    assertRefused(
        () -> Eic.parse("23X--130302DLGW-"),
        FIELD,
        "23X--130302DLGW-",
        "character 16 is a check letter or digit, never '-'");
    assertRefused(
        () -> Eic.parse("23X--130302DLGWA"),
        FIELD,
        "23X--130302DLGWA",
        "no check character fits: the first 15 characters give '-', never valid");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "10YDE-RWENET---", "10YDE-RWENET---II", " 10YDE-RWENET--I"})
  void refusesAnythingButSixteenCharacters(String text) {
    assertRefused(() -> Eic.parse(text), FIELD, text, "exactly 16 characters");
  }

  @Test
  void refusesCharactersOutOfPlace() {
    assertRefused(
        () -> Eic.parse("1AYDE-RWENET---I"),
        FIELD,
        "1AYDE-RWENET---I",
        "characters 1-2 are the issuing office's two digits");
    assertRefused(
        () -> Eic.parse("101DE-RWENET---I"),
        FIELD,
        "101DE-RWENET---I",
        "character 3 is the object-type letter A-Z");
    assertRefused(
        () -> Eic.parse("10YDE_RWENET---I"),
        FIELD,
        "10YDE_RWENET---I",
        "characters 4-15 are A-Z, 0-9 or '-'");
    assertRefused(
        () -> Eic.parse("10YDE RWENET---I"),
        FIELD,
        "10YDE RWENET---I",
        "characters 4-15 are A-Z, 0-9 or '-'");
    assertRefused(
        () -> Eic.parse("10YDE-RWENET---\u0131"),
        FIELD,
        "10YDE-RWENET---\u0131",
        "character 16 is a check letter or digit, never '-'");
  }

  @Test
  void refusesNull() {
    assertRefused(() -> Eic.parse(null), FIELD, null, "exactly 16 characters");
    assertRefused(() -> new Eic(null), FIELD, null, "exactly 16 characters");
  }

  @Test
  void constructorRefusesNonCanonicalText() {
    assertRefused(
        () -> new Eic("10yde-rwenet---i"),
        FIELD,
        "10yde-rwenet---i",
        "character 3 is the object-type letter A-Z");
    assertRefused(() -> new Eic("x"), FIELD, "x", "exactly 16 characters");
  }

  @ParameterizedTest
  @MethodSource("prefixes")
  void acceptsAtMostOneCheckCharacterPerPrefix(String prefix) {
    int accepted = 0;
    for (char check : ALPHABET.toCharArray()) {
      try {
        Eic.parse(prefix + check);
        accepted++;
      } catch (MeterStoreException refused) {
        assertThat(refused.getMessage()).contains(prefix + check);
      }
    }
    assertThat(accepted).isLessThanOrEqualTo(1);
  }

  static Stream<String> prefixes() {
    return Samples.of(
        22,
        500,
        r ->
            Samples.string(r, "0123456789", 2)
                + Samples.string(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1)
                + Samples.string(r, ALPHABET + "-", 12));
  }
}
