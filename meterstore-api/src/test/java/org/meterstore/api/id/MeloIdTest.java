package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertRefused;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MeloIdTest {
  private static final String FIELD = "MeLo-ID";
  private static final String MELO = "DE0001234567890123456789012345678";
  private static final String CHARACTERS =
      "a 2-letter country code, then 31 letters or digits in upper case";

  @Test
  void parsesACanonicalMeloId() {
    assertThat(MELO).hasSize(33);

    MeloId id = MeloId.parse(MELO);

    assertThat(id.value()).isEqualTo(MELO);
    assertThat(id).hasToString(MELO).isEqualTo(new MeloId(MELO));
    assertThat(id.countryCode()).isEqualTo("DE");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "DE 000123 45678 90123456789012345678",
        "  DE0001234567890123456789012345678\t",
        "DE00012345\n67890123456789012345678",
        "DE\u00a00001234567890123456789012345678"
      })
  void dropsWhitespaceAnywhere(String text) {
    assertThat(MeloId.parse(text).value()).isEqualTo(MELO);
  }

  @Test
  void upperCasesLetters() {
    assertThat(MeloId.parse("de00012345678901234567890abcdefgh").value())
        .isEqualTo("DE00012345678901234567890ABCDEFGH");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "DE000123456789012345678901234567",
        "DE00012345678901234567890123456789",
        "",
        "   "
      })
  void refusesAnythingButThirtyThreeCharacters(String text) {
    int found = text.replace(" ", "").length();
    assertRefused(
        () -> MeloId.parse(text), FIELD, text, "33 characters without whitespace, found " + found);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "D10001234567890123456789012345678",
        "0E0001234567890123456789012345678",
        "DE.000123456789012345678901234567",
        "DE000123456789012345678901234567-",
        "DE000123456789012345678901234567\u00c4",
        // dotless i upper-cases to an ASCII I in Java; the id must not let it through
        "DE00012345678901234567890123456\u0131\u0131"
      })
  void refusesCharactersOutOfPlace(String text) {
    assertRefused(() -> MeloId.parse(text), FIELD, text, CHARACTERS);
  }

  @Test
  void refusesNull() {
    String rule = "33 characters: a 2-letter country code, then 31 letters or digits";
    assertRefused(() -> MeloId.parse(null), FIELD, null, rule);
    assertRefused(() -> new MeloId(null), FIELD, null, "33 characters without whitespace");
  }

  @Test
  void constructorRefusesNonCanonicalText() {
    String lower = "de0001234567890123456789012345678";
    assertRefused(() -> new MeloId(lower), FIELD, lower, CHARACTERS);
    assertRefused(() -> new MeloId("x"), FIELD, "x", "33 characters without whitespace, found 1");
  }
}
