package org.meterstore.testing.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.TableDefinition;

class ReferenceModelTest {
  private static final Instant NOW = Instant.parse("2026-05-03T00:00:00Z");
  private final ReferenceModel model = new ReferenceModel(TableDefinition.interval("lastgang"));

  private static Reading reading(String version, String value) {
    return Reading.builder()
        .malo(Workload.malo(1))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(Instant.parse("2026-05-01T10:00:00Z"), Instant.parse("2026-05-01T10:15:00Z"))
        .value(value)
        .operator(Workload.OPERATOR)
        .version(version)
        .build();
  }

  @Test
  void ranksVersionsOfOneReading() {
    assertThat(model.write(List.of(reading("20260502000000", "1")), NOW))
        .containsExactly(WriteOutcome.INSERTED);
    assertThat(model.write(List.of(reading("20260503000000", "2")), NOW))
        .containsExactly(WriteOutcome.SUPERSEDED);
    assertThat(model.write(List.of(reading("20260501000000", "3")), NOW))
        .containsExactly(WriteOutcome.SHADOWED);
    assertThat(model.write(List.of(reading("20260503000000", "2.000")), NOW))
        .containsExactly(WriteOutcome.DUPLICATE);
    assertThat(model.versions()).hasSize(3);
    assertThat(model.current())
        .singleElement()
        .extracting(s -> s.reading().value().toPlainString())
        .isEqualTo("2.000000");
  }

  @Test
  void aRestatedValueRefusesTheWholeBatch() {
    model.write(List.of(reading("20260502000000", "1")), NOW);
    assertThatThrownBy(
            () ->
                model.write(
                    List.of(reading("20260504000000", "5"), reading("20260502000000", "9")), NOW))
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION));
    assertThat(model.versions()).hasSize(1);
  }

  @Test
  void aWholeWorkloadResolvesToOneCurrentReadingPerInterval() {
    Workload w = new Workload(4, LocalDate.parse("2026-03-28"), 3, 2, 0.1, 0.3, 3);
    ReferenceModel m = new ReferenceModel(TableDefinition.interval("lastgang"));
    long expectedIntervals = 0;
    for (Workload.Delivery d : w.deliveries()) {
      List<WriteOutcome> outcomes = m.write(d.readings(), NOW);
      if (d.redelivery()) {
        assertThat(outcomes).containsOnly(WriteOutcome.DUPLICATE);
      } else if (d.correction()) {
        assertThat(outcomes).containsOnly(WriteOutcome.SUPERSEDED);
      } else {
        assertThat(outcomes).containsOnly(WriteOutcome.INSERTED);
        expectedIntervals += d.readings().size();
      }
    }
    List<StoredReading> current = m.current();
    assertThat(current).hasSize((int) expectedIntervals);
  }
}
