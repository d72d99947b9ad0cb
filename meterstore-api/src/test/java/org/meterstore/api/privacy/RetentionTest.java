package org.meterstore.api.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Year;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.Samples;
import org.meterstore.api.calendar.MeteringCalendar;

class RetentionTest {
  private static Instant local(String dateTime) {
    return java.time.LocalDateTime.parse(dateTime).atZone(MeteringCalendar.ZONE).toInstant();
  }

  @Test
  void aValueOfSecondJanuary2025ComesDueOnThirtyFirstDecember2028() {
    Retention msbg = Retention.calendarYears(3);
    assertThat(msbg.dueThrough(local("2028-12-30T23:59:59"))).contains(Year.of(2024));
    assertThat(msbg.dueThrough(local("2028-12-31T00:00:00"))).contains(Year.of(2025));
    assertThat(msbg.dueAt(Year.of(2025))).isEqualTo(local("2028-12-31T00:00:00"));
    // Berlin's 31 December starts at 23:00 UTC on the 30th.
    assertThat(msbg.dueThrough(Instant.parse("2028-12-30T23:00:00Z"))).contains(Year.of(2025));
    assertThat(msbg.dueThrough(Instant.parse("2028-12-30T22:59:59Z"))).contains(Year.of(2024));
  }

  @Test
  void nothingIsDueBeforeTheFirstDueDate() {
    assertThat(Retention.calendarYears(3).dueThrough(local("1973-12-30T00:00:00"))).isEmpty();
    assertThat(Retention.rolling(Duration.ofDays(30)).dueThrough(local("1970-06-01T00:00:00")))
        .isEmpty();
  }

  @Test
  void rollingCountsFromTheEndOfTheCollectionYear() {
    Retention r = Retention.rolling(Duration.ofDays(365));
    Instant due2025 = local("2026-01-01T00:00:00").plus(Duration.ofDays(365));
    assertThat(r.dueAt(Year.of(2025))).isEqualTo(due2025);
    assertThat(r.dueThrough(due2025.minusSeconds(1))).contains(Year.of(2024));
    assertThat(r.dueThrough(due2025)).contains(Year.of(2025));
  }

  static Stream<Instant> instants() {
    long first = Instant.parse("1990-01-01T00:00:00Z").getEpochSecond();
    long last = Instant.parse("2090-01-01T00:00:00Z").getEpochSecond();
    return Samples.of(
        51, 2_000, r -> Instant.ofEpochSecond(first + (long) (r.nextDouble() * (last - first))));
  }

  @ParameterizedTest
  @MethodSource("instants")
  void neitherRuleEverErasesEarlyNorLate(Instant now) {
    for (Retention r :
        new Retention[] {
          Retention.calendarYears(3),
          Retention.calendarYears(1),
          Retention.rolling(Duration.ofDays(400))
        }) {
      Year due = r.dueThrough(now).orElseThrow();
      assertThat(r.dueAt(due)).isBeforeOrEqualTo(now);
      assertThat(r.dueAt(due.plusYears(1))).isAfter(now);
      // a reading from the very last second of the collection year is never erased early
      Instant lastReading =
          LocalDate.of(due.getValue() + 1, 1, 1)
              .atStartOfDay(MeteringCalendar.ZONE)
              .toInstant()
              .minusSeconds(1);
      assertThat(r.dueAt(due)).isAfter(lastReading);
    }
  }

  @Test
  void refusesNonsensePolicies() {
    assertInvalid(() -> Retention.calendarYears(0), "retention years");
    assertInvalid(() -> Retention.rolling(Duration.ZERO), "retention period");
    assertInvalid(() -> Retention.rolling(null), "retention period");
    assertInvalid(() -> Retention.calendarYears(3).dueAt(Year.of(1969)), "collection year");
  }
}
