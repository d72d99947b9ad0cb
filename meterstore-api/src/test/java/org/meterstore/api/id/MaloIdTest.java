package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertRefused;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.Samples;

class MaloIdTest {
  private static final String FIELD = "MaLo-ID";

  @ParameterizedTest
  @ValueSource(strings = {"51238696781", "41373559241"})
  void parsesPublishedMaloIds(String text) {
    MaloId id = MaloId.parse(text);

    assertThat(id.value()).isEqualTo(text);
    assertThat(id).hasToString(text).isEqualTo(new MaloId(text));
  }

  @Test
  void ignoresSurroundingWhitespace() {
    assertThat(MaloId.parse(" \t51238696781\n").value()).isEqualTo("51238696781");
  }

  @Test
  void refusesAMaloWithAWrongCheckDigit() {
    assertRefused(
        () -> MaloId.parse("51238696782"),
        FIELD,
        "51238696782",
        "11 digits, check digit 1 expected");
  }

  @Test
  void refusesALeadingZeroEvenWithAMatchingCheckDigit() {
    assertRefused(
        () -> MaloId.parse("01238696786"), FIELD, "01238696786", "11 digits, the first 1-9");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "5123869678",
        "512386967811",
        "5123869678A",
        "5123 8696781",
        "51238-696781",
        "+1238696781",
        "\u0665\u0661\u0662\u0663\u0668\u0666\u0669\u0666\u0667\u0668\u0661"
      })
  void refusesAnythingButElevenAsciiDigits(String text) {
    assertRefused(() -> MaloId.parse(text), FIELD, text, "exactly 11 digits");
  }

  @Test
  void refusesNull() {
    assertRefused(() -> MaloId.parse(null), FIELD, null, "exactly 11 digits");
    assertRefused(() -> new MaloId(null), FIELD, null, "exactly 11 digits");
  }

  @Test
  void constructorRefusesWhatParseRefusesAndNonCanonicalText() {
    assertRefused(() -> new MaloId("x"), FIELD, "x", "exactly 11 digits");
    assertRefused(
        () -> new MaloId("51238696782"), FIELD, "51238696782", "11 digits, check digit 1 expected");
    assertRefused(() -> new MaloId(" 51238696781"), FIELD, " 51238696781", "exactly 11 digits");
  }

  @ParameterizedTest
  @MethodSource("prefixes")
  void acceptsExactlyTheReferenceCheckDigit(String prefix) {
    int check = referenceCheckDigit(prefix);
    assertThat(MaloId.parse(prefix + check).value()).isEqualTo(prefix + check);
    for (int other = 0; other <= 9; other++) {
      if (other != check) {
        String text = prefix + other;
        assertRefused(
            () -> MaloId.parse(text), FIELD, text, "11 digits, check digit " + check + " expected");
      }
    }
  }

  static Stream<String> prefixes() {
    return Samples.of(21, 1_000, r -> (1 + r.nextInt(9)) + Samples.string(r, "0123456789", 9));
  }

  /** The digit that makes the weighted sum (1, 2, 1, 2, … from the left) a multiple of ten. */
  private static int referenceCheckDigit(String prefix) {
    int sum = 0;
    for (int i = 0; i < prefix.length(); i++) {
      sum += (prefix.charAt(i) - '0') * (i % 2 == 0 ? 1 : 2);
    }
    for (int digit = 0; ; digit++) {
      if ((sum + digit) % 10 == 0) {
        return digit;
      }
    }
  }
}
