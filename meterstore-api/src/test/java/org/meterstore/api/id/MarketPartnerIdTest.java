package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertRefused;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MarketPartnerIdTest {
  private static final String FIELD = "market partner ID";
  private static final String RULE = "exactly 13 digits";

  @Test
  void parsesThirteenDigitsIgnoringSurroundingWhitespace() {
    MarketPartnerId id = MarketPartnerId.parse(" 9904292000003\t");

    assertThat(id.value()).isEqualTo("9904292000003");
    assertThat(id).hasToString("9904292000003").isEqualTo(new MarketPartnerId("9904292000003"));
  }

  /** BDEW code numbers from public market-communication material (contact sheets, examples). */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "9904292000003",
        "9903829000006",
        "9900259000002",
        "9910902000001",
        "9900269000000"
      })
  void reportsTheBdewCheckDigitOfBdewCodeNumbersAsValid(String text) {
    assertThat(MarketPartnerId.parse(text).hasValidCheckDigit()).isTrue();
  }

  @Test
  void reportsTheBdewCheckDigitOfADvgwCodeNumberAsValid() {
    // from a public EDIFACT example; DVGW code numbers use the BDEW procedure too
    assertThat(MarketPartnerId.parse("9800505300009").hasValidCheckDigit()).isTrue();
  }

  /** GS1's own example GLN and a retail EAN-13; their GS1 digits differ from the BDEW ones. */
  @ParameterizedTest
  @ValueSource(strings = {"4012345000009", "4006381333931"})
  void reportsTheGs1CheckDigitOfAGlnAsValid(String text) {
    assertThat(MarketPartnerId.parse(text).hasValidCheckDigit()).isTrue();
  }

  @Test
  void reportsAWrongCheckDigitWithoutRefusingTheId() {
    MarketPartnerId bdew = MarketPartnerId.parse("9904292000004");
    MarketPartnerId gln = MarketPartnerId.parse("4012345000008");

    assertThat(bdew.hasValidCheckDigit()).isFalse();
    assertThat(gln.hasValidCheckDigit()).isFalse();
  }

  @Test
  void holdsBdewCodeNumbersToTheBdewProcedureOnly() {
    // 9904292000001 carries the GS1 digit of its first twelve digits, not the BDEW one (3)
    assertThat(MarketPartnerId.parse("9904292000001").hasValidCheckDigit()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "990429200000",
        "99042920000031",
        "990429200000A",
        "9904 292000003",
        "-904292000003"
      })
  void refusesAnythingButThirteenDigits(String text) {
    assertRefused(() -> MarketPartnerId.parse(text), FIELD, text, RULE);
  }

  @Test
  void refusesNull() {
    assertRefused(() -> MarketPartnerId.parse(null), FIELD, null, RULE);
    assertRefused(() -> new MarketPartnerId(null), FIELD, null, RULE);
  }

  @Test
  void constructorRefusesNonCanonicalText() {
    assertRefused(() -> new MarketPartnerId("x"), FIELD, "x", RULE);
    assertRefused(() -> new MarketPartnerId("9904292000003 "), FIELD, "9904292000003 ", RULE);
  }
}
