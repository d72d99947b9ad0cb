package org.meterstore.api.commodity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import org.junit.jupiter.api.Test;
import org.meterstore.api.reading.Quality;

class CommodityTest {
  @Test
  void eachCommodityAcceptsItsUnits() {
    assertThat(Commodity.STROM.accepts(Unit.KWH)).isTrue();
    assertThat(Commodity.STROM.accepts(Unit.M3)).isFalse();
    assertThat(Commodity.GAS.units()).containsExactlyInAnyOrder(Unit.KWH, Unit.M3);
    assertThat(Commodity.WAERME.units()).containsExactly(Unit.KWH);
    assertThat(Commodity.WASSER.units()).containsExactly(Unit.M3);
    assertThat(Commodity.GAS.usesGasDay()).isTrue();
    assertThat(Commodity.STROM.usesGasDay()).isFalse();
  }

  @Test
  void parsesNamesCaseInsensitivelyAndRefusesOthers() {
    assertThat(Commodity.parse(" gas ")).isEqualTo(Commodity.GAS);
    assertThat(Unit.parse("kWh")).isEqualTo(Unit.KWH);
    assertThat(Quality.parse("substituted")).isEqualTo(Quality.SUBSTITUTED);
    assertInvalid(() -> Commodity.parse("ELECTRICITY"), "commodity", "'ELECTRICITY'", "STROM");
    assertInvalid(() -> Unit.parse("MWh"), "unit", "'MWh'");
    assertInvalid(() -> Quality.parse(null), "quality", "null");
  }

  @Test
  void faultyAndUnknownValuesAreNotBillable() {
    assertThat(Quality.values())
        .filteredOn(q -> !q.isBillable())
        .containsExactlyInAnyOrder(Quality.FAULTY, Quality.UNKNOWN);
  }
}
