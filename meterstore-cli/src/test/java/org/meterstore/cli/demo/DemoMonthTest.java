package org.meterstore.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;
import org.meterstore.cli.demo.DemoMonth.Delivery;
import org.meterstore.cli.demo.DemoMonth.Kind;

class DemoMonthTest {
  private static final DemoMonth OCTOBER = new DemoMonth(30, YearMonth.of(2026, 10), 7);

  @Test
  void theLongDstDayHasOneHundredQuarterHoursAndTwentyFiveGasHours() {
    List<Delivery> originals = originals(LocalDate.of(2026, 10, 25));
    Delivery strom = originals.get(0);
    assertThat(strom.table()).isEqualTo(DemoMonth.STROM);
    assertThat(strom.readings()).hasSize(100);
    assertThat(strom.readings()).allMatch(r -> r.resolution().equals(Resolution.PT15M));
    assertThat(originals.get(4).readings()).hasSize(24);
    // The long gas day is the one named after the Saturday: 24 Oct 06:00 to 25 Oct 06:00.
    List<Delivery> gasDay = originals(LocalDate.of(2026, 10, 24));
    Delivery hourlyGas = gasDay.get(4);
    assertThat(hourlyGas.table()).isEqualTo(DemoMonth.GAS);
    assertThat(hourlyGas.readings()).hasSize(25);
    Delivery dailyGas = gasDay.get(14);
    assertThat(dailyGas.readings())
        .singleElement()
        .satisfies(r -> assertThat(r.unit()).isEqualTo(Unit.M3));
  }

  private static List<Delivery> originals(LocalDate day) {
    return OCTOBER.deliveries(day).stream().filter(d -> d.kind() == Kind.ORIGINAL).toList();
  }

  @Test
  void aboutThreePercentOfReadingsAreCorrectedAtAHigherVersion() {
    long originals = 0;
    long corrections = 0;
    for (LocalDate day : OCTOBER.days()) {
      for (Delivery d : OCTOBER.deliveries(day)) {
        if (d.kind() == Kind.ORIGINAL) {
          originals += d.readings().size();
        } else if (d.kind() == Kind.CORRECTION) {
          corrections += d.readings().size();
          assertThat(d.readings()).allMatch(r -> r.quality() == Quality.CORRECTED);
        }
      }
    }
    assertThat(corrections / (double) originals).isBetween(0.02, 0.04);
  }

  @Test
  void correctionsArriveLaterWithHigherVersionsAndRedeliveriesRepeatTheBatch() {
    List<Delivery> day = OCTOBER.deliveries(LocalDate.of(2026, 10, 3));
    Delivery original = day.get(0);
    for (Delivery d : day) {
      if (d.kind() == Kind.CORRECTION) {
        Reading c = d.readings().get(0);
        assertThat(d.arrival()).isAfter(original.arrival());
        assertThat(c.version().compareTo(original.readings().get(0).version())).isPositive();
      }
    }
    assertThat(new DemoMonth(400, YearMonth.of(2026, 10), 7).deliveries(LocalDate.of(2026, 10, 3)))
        .anySatisfy(d -> assertThat(d.kind()).isEqualTo(Kind.REDELIVERY));
  }

  @Test
  void theSameSeedGivesTheSameReadings() {
    LocalDate day = LocalDate.of(2026, 10, 9);
    assertThat(new DemoMonth(30, YearMonth.of(2026, 10), 7).deliveries(day))
        .isEqualTo(OCTOBER.deliveries(day));
  }

  @Test
  void everyFifthLocationMeasuresGas() {
    assertThat(DemoMonth.commodity(4)).isEqualTo(Commodity.GAS);
    assertThat(DemoMonth.commodity(5)).isEqualTo(Commodity.STROM);
    assertThat(DemoMonth.malo(0)).hasSize(11);
  }
}
