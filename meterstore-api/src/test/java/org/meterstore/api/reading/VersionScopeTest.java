package org.meterstore.api.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.time.Instant;
import java.time.YearMonth;
import org.junit.jupiter.api.Test;
import org.meterstore.api.commodity.Commodity;

class VersionScopeTest {
  @Test
  void parsesAndPrintsTheCanonicalForm() {
    VersionScope s = VersionScope.parse(" 9900000000003:2026-03 ");
    assertThat(s.month()).isEqualTo(YearMonth.of(2026, 3));
    assertThat(s.operator().toString()).isEqualTo("9900000000003");
    assertThat(s).hasToString("9900000000003:2026-03");
  }

  @Test
  void refusesOtherShapes() {
    for (String bad :
        new String[] {
          "9900000000003-2026-03",
          "9900000000003:2026-3",
          "9900000000003:2026-13",
          "990000000000:2026-03",
          "9900000000003:",
          ""
        }) {
      assertInvalid(() -> VersionScope.parse(bad), "version_scope", "'" + bad + "'");
    }
    assertInvalid(() -> VersionScope.parse(null), "version_scope");
  }

  @Test
  void coversExactlyTheBalancingMonth() {
    VersionScope march = VersionScope.parse("9900000000003:2026-03");
    Instant lastQuarterOfMarch = Instant.parse("2026-03-31T21:45:00Z");
    assertThat(
            march.covers(lastQuarterOfMarch, lastQuarterOfMarch.plusSeconds(900), Commodity.STROM))
        .isTrue();
    Instant firstOfApril = Instant.parse("2026-03-31T22:00:00Z");
    assertThat(march.covers(firstOfApril, firstOfApril.plusSeconds(900), Commodity.STROM))
        .isFalse();
    // An interval that starts inside and ends outside the month is not covered.
    assertThat(march.covers(lastQuarterOfMarch, firstOfApril.plusSeconds(900), Commodity.STROM))
        .isFalse();
    // Gas: the month runs until 06:00 local on the 1st of April (04:00Z in summer time).
    assertThat(march.covers(firstOfApril, firstOfApril.plusSeconds(900), Commodity.GAS)).isTrue();
    Instant gasApril = Instant.parse("2026-04-01T04:00:00Z");
    assertThat(march.covers(gasApril, null, Commodity.GAS)).isFalse();
  }
}
