package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertRefused;

import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.Samples;

class ObisCodeTest {
  private static final String FIELD = "OBIS code";
  private static final String SPELLINGS =
      "A-B:C.D.E, A-B:C.D.E*255, A.B.C.D.E.255 or 12 hex digits, each group 0..255";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1-0:1.8.0        | 1-0:1.8.0",
        "1-0:1.8.0*255    | 1-0:1.8.0",
        "1.0.1.8.0.255    | 1-0:1.8.0",
        "0100010800FF     | 1-0:1.8.0",
        "0100010800ff     | 1-0:1.8.0",
        "01-00:01.08.00   | 1-0:1.8.0",
        "'  1-0:2.8.0 '   | 1-0:2.8.0",
        "1-1:1.29.0       | 1-1:1.29.0",
        "7-0:3.0.0        | 7-0:3.0.0",
        "7-20:99.33.17    | 7-20:99.33.17",
        "7.20.99.33.17.255| 7-20:99.33.17",
        "0714632111FF     | 7-20:99.33.17",
        "6-0:1.0.0*255    | 6-0:1.0.0",
        "255-255:255.255.255*255 | 255-255:255.255.255",
        "0-0:0.0.0        | 0-0:0.0.0"
      })
  void parsesEachSpellingToTheCanonicalForm(String text, String canonical) {
    assertThat(ObisCode.parse(text)).hasToString(canonical);
  }

  @Test
  void keepsTheGroupsAsNumbers() {
    ObisCode code = ObisCode.parse("7-20:99.33.17");

    assertThat(code).isEqualTo(new ObisCode(7, 20, 99, 33, 17));
    assertThat(code.medium()).isEqualTo(7);
    assertThat(code.b()).isEqualTo(20);
    assertThat(code.e()).isEqualTo(17);
  }

  @Test
  void tellsImportFromExportForElectricityOnly() {
    assertThat(ObisCode.parse("1-0:1.8.0").isImport()).isTrue();
    assertThat(ObisCode.parse("1-0:1.8.0").isExport()).isFalse();
    assertThat(ObisCode.parse("1-0:2.8.0").isExport()).isTrue();
    assertThat(ObisCode.parse("1-0:2.8.0").isImport()).isFalse();
    assertThat(ObisCode.parse("1-0:21.8.0").isImport()).isFalse();
    assertThat(ObisCode.parse("7-0:1.8.0").isImport()).isFalse();
    assertThat(ObisCode.parse("6-0:2.8.0").isExport()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.8.0", "1.8", "1.8.0*255", "2.8.0"})
  void refusesShortFormsInsteadOfGuessingMediumAndChannel(String text) {
    assertRefused(
        () -> ObisCode.parse(text),
        FIELD,
        text,
        "short form without medium and channel; write A-B:C.D.E, e.g. 1-0:1.8.0");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1-0:256.8.0      | C",
        "1-0:1.8.1000     | E",
        "1-0:1.8.99999999999999999999 | E",
        "300-0:1.8.0*255  | A",
        "1.0.1.8.0.256    | F"
      })
  void refusesAGroupAbove255(String text, String group) {
    assertRefused(
        () -> ObisCode.parse(text),
        FIELD,
        text,
        "group " + group + " is above 255; every group is 0..255");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {"1-0:1.8.0*1 | 1", "1-0:1.8.0*0 | 0", "1.0.1.8.0.0 | 0", "0100010800FE | 254"})
  void refusesAnFGroupOtherThan255AsNotSupported(String text, int f) {
    assertRefused(
        () -> ObisCode.parse(text),
        FIELD,
        text,
        "F group " + f + " is not supported: only 255, the current value, is stored as A-B:C.D.E");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "   ",
        "1-0:1.8",
        "1-0:1.8.0.255",
        "1.0.1.8.0",
        "1-0:C.1.0",
        "1-1?:1.29.0",
        "0100010800F",
        "0100010800FFF",
        "1-0:1.8.0*",
        "1-0 : 1.8.0",
        "1-0:1.8.0&255",
        "1-0:-1.8.0",
        "1-0:\u0661.8.0"
      })
  void refusesOtherSpellings(String text) {
    assertRefused(() -> ObisCode.parse(text), FIELD, text, SPELLINGS);
  }

  @Test
  void refusesNull() {
    assertRefused(() -> ObisCode.parse(null), FIELD, null, SPELLINGS);
  }

  @Test
  void constructorRefusesAGroupOutsideTheRange() {
    assertRefused(
        () -> new ObisCode(1, 0, -1, 8, 0),
        FIELD,
        "1-0:-1.8.0",
        "group C is -1; every group is 0..255");
    assertRefused(
        () -> new ObisCode(1, 0, 1, 8, 256),
        FIELD,
        "1-0:1.8.256",
        "group E is above 255; every group is 0..255");
  }

  static Stream<Arguments> groups() {
    return Samples.of(
        23,
        1_000,
        r ->
            Arguments.of(
                r.nextInt(256), r.nextInt(256), r.nextInt(256), r.nextInt(256), r.nextInt(256)));
  }

  @ParameterizedTest
  @MethodSource("groups")
  void everySpellingOfTheSameGroupsParsesToTheSameCode(int a, int b, int c, int d, int e) {
    ObisCode code = new ObisCode(a, b, c, d, e);
    String hex = String.format("%02X%02X%02X%02X%02XFF", a, b, c, d, e);

    assertThat(ObisCode.parse(code.toString())).isEqualTo(code);
    assertThat(ObisCode.parse(code + "*255")).isEqualTo(code);
    assertThat(ObisCode.parse(a + "." + b + "." + c + "." + d + "." + e + ".255")).isEqualTo(code);
    assertThat(ObisCode.parse(hex)).isEqualTo(code);
    assertThat(ObisCode.parse(hex.toLowerCase(Locale.ROOT))).isEqualTo(code);
  }
}
