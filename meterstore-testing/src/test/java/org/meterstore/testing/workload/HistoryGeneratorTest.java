package org.meterstore.testing.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.testing.workload.History.Deliver;
import org.meterstore.testing.workload.History.Event;

class HistoryGeneratorTest {

  @Test
  void theSameSeedGivesTheSameHistory() {
    History a = HistoryGenerator.generate(42);
    History b = HistoryGenerator.generate(42);
    assertThat(a.events()).isEqualTo(b.events());
    assertThat(a.table()).isEqualTo(b.table());
    assertThat(HistoryGenerator.generate(43).events()).isNotEqualTo(a.events());
  }

  @Test
  void eventsAreInClockOrderAndEndWithAFullCheck() {
    for (long seed = 0; seed < 50; seed++) {
      List<Event> events = HistoryGenerator.generate(seed).events();
      for (int i = 1; i < events.size(); i++) {
        assertThat(events.get(i).at()).isAfterOrEqualTo(events.get(i - 1).at());
      }
      assertThat(events.get(events.size() - 1)).isEqualTo(new History.Check(last(events), true));
    }
  }

  /** Two hundred histories cover everything the reliability suite promises to generate. */
  @Test
  void twoHundredHistoriesCoverTheHardPlaces() {
    Set<WriteOutcome> outcomes = EnumSet.noneOf(WriteOutcome.class);
    Set<LocalDate> dstDays = new HashSet<>();
    Set<History.Kind> kinds = EnumSet.noneOf(History.Kind.class);
    Set<Class<?>> eventTypes = new HashSet<>();
    boolean twoOperatorsOneMeter = false;
    boolean gas = false;
    boolean twoTenants = false;
    for (long seed : LongStream.range(0, 200).toArray()) {
      History h = HistoryGenerator.generate(seed);
      ReferenceModel model = new ReferenceModel(h.table());
      Set<String> scopes = new HashSet<>();
      Set<String> tenants = new HashSet<>();
      for (Event e : h.events()) {
        eventTypes.add(e.getClass());
        if (e instanceof Deliver d) {
          kinds.add(d.kind());
          outcomes.addAll(model.write(d.readings(), d.at()));
          for (Reading r : d.readings()) {
            scopes.add(r.maloId() + "/" + r.extra().get("tenant") + "/" + r.versionScope());
            tenants.add(r.extra().get("tenant"));
            gas |= r.commodity().name().equals("GAS");
            LocalDate day = r.from().atZone(java.time.ZoneOffset.UTC).toLocalDate();
            if ((day.getMonth() == Month.MARCH || day.getMonth() == Month.OCTOBER)
                && day.getDayOfWeek() == java.time.DayOfWeek.SUNDAY
                && day.getDayOfMonth() > 24) {
              dstDays.add(day);
            }
          }
        }
      }
      twoTenants |= tenants.size() > 1;
      java.util.Map<String, Set<String>> operatorsPerMeter = new java.util.HashMap<>();
      for (String scope : scopes) {
        String meter = scope.substring(0, scope.lastIndexOf('/'));
        String operator = scope.substring(scope.lastIndexOf('/') + 1, scope.indexOf(':'));
        operatorsPerMeter.computeIfAbsent(meter, k -> new HashSet<>()).add(operator);
      }
      twoOperatorsOneMeter |= operatorsPerMeter.values().stream().anyMatch(o -> o.size() == 2);
    }
    assertThat(outcomes).containsExactlyInAnyOrder(WriteOutcome.values());
    assertThat(kinds).containsExactlyInAnyOrder(History.Kind.values());
    assertThat(eventTypes).hasSize(History.Event.class.getPermittedSubclasses().length);
    assertThat(dstDays).contains(LocalDate.of(2026, 3, 29), LocalDate.of(2026, 10, 25));
    assertThat(gas).isTrue();
    assertThat(twoTenants).isTrue();
    assertThat(twoOperatorsOneMeter).isTrue();
  }

  /** DESIGN § 3.3: one network operator per reading, which the model does not check. */
  @Test
  void everyReadingHasOneNetworkOperator() {
    for (long seed = 0; seed < 300; seed++) {
      java.util.Map<List<Object>, String> operators = new java.util.HashMap<>();
      for (Event e : HistoryGenerator.generate(seed).events()) {
        List<Reading> readings =
            e instanceof Deliver d
                ? d.readings()
                : e instanceof History.StaleHotWrite w ? w.readings() : List.of();
        for (Reading r : readings) {
          List<Object> key = List.of(r.maloId(), r.obisCode(), r.from(), r.extra());
          String operator = r.versionScope().operator().value();
          assertThat(operators.putIfAbsent(key, operator))
              .as("seed %d: operator of %s", seed, key)
              .isIn(null, operator);
        }
      }
    }
  }

  @Test
  void noGeneratedBatchIsRefusedByTheModel() {
    for (long seed = 0; seed < 100; seed++) {
      History h = HistoryGenerator.generate(seed);
      ReferenceModel model = new ReferenceModel(h.table());
      for (Event e : h.events()) {
        if (e instanceof Deliver d) {
          try {
            model.write(d.readings(), d.at());
          } catch (MeterStoreException refused) {
            throw new AssertionError("seed " + seed + ": " + d + " refused", refused);
          }
        }
      }
    }
  }

  private static Instant last(List<Event> events) {
    return events.get(events.size() - 1).at();
  }
}
