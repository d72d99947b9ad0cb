package org.meterstore.api.id;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CheckDigitsTest {

  @Test
  void bdewProcedureGivesThePublishedMaloCheckDigits() {
    // a = 5+2+8+9+7 = 31, b = 1+3+6+6+8 = 24, c = 31 + 48 = 79, check = 10 - 9 = 1
    assertThat(CheckDigits.bdew("5123869678", 10)).isEqualTo(1);
    assertThat(CheckDigits.bdew("4137355924", 10)).isEqualTo(1);
  }

  @Test
  void bdewProcedureGivesZeroRatherThanTen() {
    assertThat(CheckDigits.bdew("990026900000", 12)).isEqualTo(0);
  }

  @Test
  void gs1ProcedureWeighsThreeNextToTheCheckDigit() {
    assertThat(CheckDigits.gs1("401234500000", 12)).isEqualTo(9);
    assertThat(CheckDigits.gs1("400638133393", 12)).isEqualTo(1);
    // an 8-digit GTIN-8 has weights 3, 1, … from the left: 9638507 -> 4
    assertThat(CheckDigits.gs1("9638507", 7)).isEqualTo(4);
  }

  @Test
  void eicProcedureCanGiveTheHyphenThatNoCodeMayEndWith() {
    assertThat(CheckDigits.eic("10YDE-RWENET---")).isEqualTo('I');
    assertThat(CheckDigits.eic("10Y1001A1001A83")).isEqualTo('F');
    assertThat(CheckDigits.eic("23X--130302DLGW")).isEqualTo('-');
  }

  @Test
  void allDigitsAdmitsAsciiDigitsOnly() {
    assertThat(CheckDigits.allDigits("0123456789")).isTrue();
    assertThat(CheckDigits.allDigits("\u0661")).isFalse();
    assertThat(CheckDigits.allDigits("12a")).isFalse();
  }
}
