package org.meterstore.testing.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.testing.workload.Workload.Delivery;

class WorkloadTest {
  @Test
  void oneBatchPerMeterAndDayFollowsTheClockChanges() {
    // 2026-10-24 (Saturday) to 2026-10-26: the long gas day is Saturday, the long calendar day
    // Sunday.
    Workload w = new Workload(5, LocalDate.parse("2026-10-24"), 3, 5, 0, 0, 1);
    List<Delivery> deliveries = w.deliveries();
    assertThat(deliveries).hasSize(15);
    assertThat(w.commodity(4)).isEqualTo(Commodity.GAS);
    assertThat(sizes(deliveries, Commodity.STROM))
        .containsExactly(96, 96, 96, 96, 100, 100, 100, 100, 96, 96, 96, 96);
    assertThat(sizes(deliveries, Commodity.GAS)).containsExactly(25, 24, 24);
  }

  @Test
  void correctionsComeLaterAtHigherVersionsAndRedeliveriesRepeatTheirOriginal() {
    Workload w = new Workload(20, LocalDate.parse("2026-03-01"), 10, 5, 0.05, 0.2, 7);
    List<Delivery> deliveries = w.deliveries();
    List<Reading> corrections =
        deliveries.stream()
            .filter(Delivery::correction)
            .flatMap(d -> d.readings().stream())
            .toList();
    long originals =
        deliveries.stream()
            .filter(d -> !d.correction() && !d.redelivery())
            .mapToLong(d -> d.readings().size())
            .sum();
    assertThat((double) corrections.size() / originals).isBetween(0.03, 0.07);
    for (int i = 0; i < deliveries.size(); i++) {
      if (deliveries.get(i).redelivery()) {
        assertThat(deliveries.get(i).readings()).isEqualTo(deliveries.get(i - 1).readings());
      }
    }
    assertThat(deliveries.stream().filter(Delivery::redelivery).count()).isBetween(20L, 60L);
    assertThat(corrections).allSatisfy(c -> assertThat(c.version().isOperatorVersion()).isTrue());
  }

  @Test
  void theSameSeedGivesTheSameDeliveries() {
    Workload w = new Workload(3, LocalDate.parse("2026-01-01"), 2, 2, 0.1, 0.1, 42);
    assertThat(w.deliveries()).isEqualTo(w.deliveries());
    assertThat(Workload.malo(0)).hasSize(11).startsWith("5000000000");
  }

  private static List<Integer> sizes(List<Delivery> deliveries, Commodity commodity) {
    return deliveries.stream()
        .filter(d -> d.readings().get(0).commodity() == commodity)
        .map(d -> d.readings().size())
        .toList();
  }
}
