package org.meterstore.api.reading;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The common spelling of a value, read without the general parser: the same value and scale. */
class PlainDecimalTest {
  @Test
  void agreesWithTheGeneralParserOnEveryText() {
    Random random = new Random(3);
    String alphabet = "0123456789.-+eE ";
    for (int i = 0; i < 200_000; i++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(22);
      for (int k = 0; k < length; k++) {
        // mostly digits, sometimes a point, a sign or something the fast path leaves alone
        text.append(
            random.nextInt(6) == 0
                ? alphabet.charAt(random.nextInt(alphabet.length()))
                : (char) ('0' + random.nextInt(10)));
      }
      String t = text.toString();
      BigDecimal fast = ReadingBuilder.plainDecimal(t);
      if (fast == null) {
        continue;
      }
      BigDecimal general = new BigDecimal(t);
      assertThat(fast).as(t).isEqualTo(general); // equals: value and scale
    }
  }

  @Test
  void readsTheUsualSpellingsAndLeavesTheRestToTheGeneralParser() {
    assertThat(ReadingBuilder.plainDecimal("0.850000")).isEqualTo(new BigDecimal("0.850000"));
    assertThat(ReadingBuilder.plainDecimal("-12.5")).isEqualTo(new BigDecimal("-12.5"));
    assertThat(ReadingBuilder.plainDecimal("-0")).isEqualTo(new BigDecimal("-0"));
    assertThat(ReadingBuilder.plainDecimal("999999999999.999999"))
        .isEqualTo(new BigDecimal("999999999999.999999"));
    for (String other :
        new String[] {"", "-", ".5", "5.", "1e3", " 1", "+1", "1.2.3", "1234567890123456789"}) {
      assertThat(ReadingBuilder.plainDecimal(other)).as(other).isNull();
    }
  }
}
