package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.local;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.Year;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The statute's clock through the real registry and sweep: never early, and exactly on time. */
@ExtendWith(PostgresExtension.class)
class RetentionCalendarIT {
  private static final Retention MSBG = Retention.calendarYears(3);
  private static final String REASON = "§ 60 Abs. 6 MsbG";
  private static final String ACTOR = "retention-job";

  private static PrivacyFixtures.Metrics metrics;
  private static TestDatabase database;

  @BeforeAll
  static void open(TestDatabase db) {
    database = db;
    metrics = new PrivacyFixtures.Metrics();
  }

  @AfterAll
  static void close() {
    metrics.close();
  }

  @Test
  void aValueOfSecondJanuary2025ComesDueOnThirtyFirstDecember2028() {
    try (HotStore store = open("msbg")) {
      Subjects subjects = store.subjects();
      SubjectRef ref =
          subjects.registerSubject("HH-2025", local("2025-01-02T00:00"), Commodity.STROM, NOW);
      SubjectRef younger =
          subjects.registerSubject("HH-2026", local("2026-01-01T00:00"), Commodity.STROM, NOW);

      SweepResult dayBefore = sweep(subjects, local("2028-12-30T00:00"));
      SweepResult lastSecond = sweep(subjects, local("2028-12-30T23:59:59"));
      assertThat(dayBefore.dueThrough()).contains(Year.of(2024));
      assertThat(dayBefore.erased() + lastSecond.erased()).isZero();
      assertThat(isRegistered(store.schema(), ref)).isTrue();

      SweepResult due = sweep(subjects, local("2028-12-31T00:00"));
      assertThat(due.dueThrough()).contains(Year.of(2025));
      assertThat(due.erased()).isEqualTo(1);
      assertThat(due.complete()).isTrue();
      assertThat(isRegistered(store.schema(), ref)).isFalse();
      assertThat(isRegistered(store.schema(), younger)).isTrue();

      List<TrailEntry> trail =
          subjects.erasures(local("2028-12-31T00:00"), local("2029-01-01T00:00"), null, 10);
      assertThat(trail)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.trigger()).isEqualTo(Trigger.RETENTION);
                assertThat(e.references()).containsExactly(ref);
                assertThat(e.dueThrough()).isEqualTo(Year.of(2025));
                assertThat(e.reason()).isEqualTo(REASON);
              });
    }
  }

  @Test
  void aGasReadingOfNewYearsMorningIsSweptWithThePreviousYear() {
    try (HotStore store = open("gasday")) {
      Subjects subjects = store.subjects();
      Instant morning = local("2025-01-01T05:59");
      SubjectRef gas = subjects.registerSubject("GAS-1", morning, Commodity.GAS, NOW);
      SubjectRef power = subjects.registerSubject("GAS-1", morning, Commodity.STROM, NOW);
      assertThat(gas.year()).isEqualTo(Year.of(2024));

      SweepResult result = sweep(subjects, local("2027-12-31T00:00"));

      assertThat(result.erased()).isEqualTo(1);
      assertThat(isRegistered(store.schema(), gas)).isFalse();
      assertThat(isRegistered(store.schema(), power)).isTrue();
    }
  }

  @Test
  void aSweepBeforeTheFirstDueDateOfTheCalendarRunsNothing() {
    try (HotStore store = open("early")) {
      SweepResult result = sweep(store.subjects(), local("1972-06-01T00:00"));
      assertThat(result).isEqualTo(SweepResult.nothingDue());
    }
  }

  static Stream<Long> seeds() {
    return IntStream.range(0, 6).mapToObj(i -> 0x5EED_0000L + i);
  }

  /**
   * Rolling periods: a sweep one second before the mapping comes due keeps it, the sweep at that
   * instant erases it, and then at least {@code period} has passed since the reading itself.
   */
  @ParameterizedTest
  @MethodSource("seeds")
  void rollingNeverErasesEarly(long seed) {
    Random random = new Random(seed);
    Duration period = Duration.ofDays(1 + random.nextInt(1500)).plusSeconds(random.nextInt(86_400));
    Instant collected =
        local("2019-01-01T00:00").plus(Duration.ofMinutes(random.nextInt(6 * 366 * 24 * 60)));
    Commodity commodity = random.nextBoolean() ? Commodity.GAS : Commodity.STROM;
    Retention rolling = Retention.rolling(period);
    try (HotStore store = open("rolling_" + Long.toHexString(seed))) {
      Subjects subjects = store.subjects();
      SubjectRef ref = subjects.registerSubject("R-1", collected, commodity, NOW);
      Instant dueAt = rolling.dueAt(ref.year());

      SweepResult early = subjects.sweep(rolling, REASON, ACTOR, dueAt.minusSeconds(1), 10);
      assertThat(early.erased()).as("erased before %s", dueAt).isZero();
      assertThat(isRegistered(store.schema(), ref)).isTrue();

      SweepResult onTime = subjects.sweep(rolling, REASON, ACTOR, dueAt, 10);
      assertThat(onTime.erased()).isEqualTo(1);
      assertThat(Duration.between(collected, dueAt)).isGreaterThanOrEqualTo(period);
    }
  }

  private static HotStore open(String schema) {
    HotStore store = PrivacyFixtures.store(database, schema, null, metrics);
    store.createTables(List.of(), NOW);
    return store;
  }

  private static SweepResult sweep(Subjects subjects, Instant now) {
    return subjects.sweep(MSBG, REASON, ACTOR, now, 10);
  }

  /** Whether the registry still maps {@code ref}. */
  private static boolean isRegistered(String schema, SubjectRef ref) {
    try {
      return Fixtures.scalar(
              database,
              "SELECT count(*) FROM " + schema + ".subjects WHERE reference = '" + ref + "'")
          == 1;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
