package org.meterstore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;

class DatasetTest {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant NOW = Instant.parse("2025-12-01T00:00:00Z");
  private static final Instant FROM = Instant.parse("2025-03-28T00:00:00Z");
  private static final Instant TO = Instant.parse("2025-04-01T00:00:00Z");

  private static Dataset dataset(long seed) {
    return new Dataset(10, LocalDate.of(2025, 3, 28), 4, 5, 0.03, 0.05, seed);
  }

  private static List<String> render(Iterable<Object[]> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(Arrays.toString(r)));
    return out;
  }

  @ParameterizedTest
  @ValueSource(longs = {1L, 42L, 20261130L})
  void theSameSeedGivesTheSameRowsEveryTime(long seed) {
    List<String> first = render(dataset(seed).rows(TABLE, NOW, FROM, TO));
    List<String> again = render(dataset(seed).rows(TABLE, NOW, FROM, TO));
    assertThat(again).isEqualTo(first).isNotEmpty();
  }

  @Test
  void anotherSeedGivesOtherValues() {
    assertThat(render(dataset(2).rows(TABLE, NOW, FROM, TO)))
        .isNotEqualTo(render(dataset(1).rows(TABLE, NOW, FROM, TO)));
  }

  @Test
  void aMeterDayDoesNotDependOnWhatWasGeneratedBefore() {
    Dataset d = dataset(7);
    Dataset.MeterDay direct = d.meterDay(13, LocalDate.of(2025, 3, 30));
    d.meterDay(2, LocalDate.of(2025, 3, 28));
    assertThat(d.meterDay(13, LocalDate.of(2025, 3, 30))).isEqualTo(direct);
  }

  @Test
  void theDstDayHas92QuarterHoursAndGasMetersDeliverHourlyGasDays() {
    Dataset d = dataset(7);
    LocalDate springForward = LocalDate.of(2025, 3, 30);
    assertThat(d.meterDay(0, springForward).originals()).hasSize(92);
    assertThat(d.meterDay(0, LocalDate.of(2025, 3, 28)).originals()).hasSize(96);
    assertThat(d.commodity(4)).isEqualTo(Commodity.GAS);
    // the gas day named after Saturday 29 March holds the switch: 23 hours
    assertThat(d.meterDay(4, LocalDate.of(2025, 3, 29)).originals()).hasSize(23);
  }

  @Test
  void aboutThreePercentOfReadingsAreCorrectedAtAHigherVersion() {
    Dataset d = new Dataset(100, LocalDate.of(2025, 5, 5), 3, 0, 0.03, 0.05, 3);
    long originals = 0;
    long corrections = 0;
    long redelivered = 0;
    for (int m = 0; m < d.meters(); m++) {
      for (int day = 0; day < d.days(); day++) {
        Dataset.MeterDay md = d.meterDay(m, d.firstDay().plusDays(day));
        originals += md.originals().size();
        corrections += md.corrections().size();
        redelivered += md.redelivered() ? 1 : 0;
        for (Reading c : md.corrections()) {
          Reading original =
              md.originals().stream().filter(o -> o.from().equals(c.from())).findFirst().get();
          assertThat(c.version().compareTo(original.version())).isPositive();
        }
      }
    }
    assertThat((double) corrections / originals).isBetween(0.025, 0.035);
    assertThat(redelivered).isBetween(3L, 40L);
  }

  @Test
  void rowsStayInsideTheRequestedRange() {
    int fromIndex = TABLE.columns().stream().map(c -> c.name()).toList().indexOf("from");
    for (Object[] row : dataset(5).rows(TABLE, NOW, FROM.plusSeconds(3600), TO)) {
      Instant from = (Instant) row[fromIndex];
      assertThat(from).isAfterOrEqualTo(FROM.plusSeconds(3600)).isBefore(TO);
    }
  }

  @Test
  void singleVersionRowsAreTheOriginalsWithOneVersionPerUtcMonth() {
    Dataset d = new Dataset(10, LocalDate.of(2025, 3, 30), 4, 5, 0.5, 0.5, 9);
    Instant from = Instant.parse("2025-03-30T00:00:00Z");
    Instant to = Instant.parse("2025-04-03T00:00:00Z");
    List<String> names = TABLE.columns().stream().map(c -> c.name()).toList();
    int fromIndex = names.indexOf("from");
    int versionIndex = names.indexOf("version");
    int valueIndex = names.indexOf("value");
    List<Object[]> single = new ArrayList<>();
    d.singleVersionRows(TABLE, NOW, from, to).forEach(single::add);
    List<Object> originalValues = new ArrayList<>();
    for (int m = 0; m < d.meters(); m++) {
      for (int day = 0; day < d.days(); day++) {
        for (Reading r : d.meterDay(m, d.firstDay().plusDays(day)).originals()) {
          if (!r.from().isBefore(from) && r.from().isBefore(to)) {
            originalValues.add(r.value());
          }
        }
      }
    }
    assertThat(single).hasSize(originalValues.size());
    assertThat(single.stream().map(r -> r[valueIndex]).toList())
        .containsExactlyInAnyOrderElementsOf(originalValues);
    for (Object[] row : single) {
      Instant f = (Instant) row[fromIndex];
      String expected = f.isBefore(Instant.parse("2025-04-01T00:00:00Z")) ? "20250401" : "20250501";
      assertThat(row[versionIndex].toString()).startsWith(expected);
    }
  }

  @Test
  void theNextUtcMonthStartsOnTheFirstAtMidnightUtc() {
    assertThat(Dataset.nextUtcMonth(Instant.parse("2025-12-31T23:45:00Z")))
        .isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(Dataset.nextUtcMonth(Instant.parse("2025-03-01T00:00:00Z")))
        .isEqualTo(Instant.parse("2025-04-01T00:00:00Z"));
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new Dataset(0, LocalDate.of(2025, 1, 1), 1, 0, 0, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Dataset(1, LocalDate.of(2025, 1, 1), 1, 0, 1.5, 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
