package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.local;

import java.time.Instant;
import java.time.Year;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** Registration through the real registry: one reference per person and collection year. */
@ExtendWith(PostgresExtension.class)
class SubjectRegistrationIT {
  private static PrivacyFixtures.Metrics metrics;
  private static HotStore store;
  private static Subjects subjects;
  private static TestDatabase database;

  @BeforeAll
  static void open(TestDatabase db) {
    database = db;
    metrics = new PrivacyFixtures.Metrics();
    store = PrivacyFixtures.store(db, "registration", null, metrics);
    store.createTables(List.of(), NOW);
    subjects = store.subjects();
  }

  @AfterAll
  static void close() {
    store.close();
    metrics.close();
  }

  @Test
  void samePersonAndYearGetTheSameReferenceAndANewYearANewOne() {
    SubjectRef first =
        subjects.registerSubject("K-1001", local("2025-03-01T10:00"), Commodity.STROM, NOW);
    SubjectRef again =
        subjects.registerSubject("K-1001", local("2025-11-30T23:45"), Commodity.STROM, NOW);
    SubjectRef nextYear =
        subjects.registerSubject("K-1001", local("2026-01-01T00:00"), Commodity.STROM, NOW);
    SubjectRef otherPerson =
        subjects.registerSubject("K-1002", local("2025-03-01T10:00"), Commodity.STROM, NOW);

    assertThat(again).isEqualTo(first);
    assertThat(first.year()).isEqualTo(Year.of(2025));
    assertThat(nextYear.year()).isEqualTo(Year.of(2026));
    assertThat(nextYear).isNotEqualTo(first);
    assertThat(otherPerson).isNotEqualTo(first);
  }

  @Test
  void aGasReadingAt0559LocalOnNewYearsDayRegistersToThePreviousYear() {
    SubjectRef gasBefore =
        subjects.registerSubject("G-7", local("2025-01-01T05:59"), Commodity.GAS, NOW);
    SubjectRef gasAt6 =
        subjects.registerSubject("G-7", local("2025-01-01T06:00"), Commodity.GAS, NOW);
    SubjectRef powerBefore =
        subjects.registerSubject("G-7", local("2025-01-01T05:59"), Commodity.STROM, NOW);
    SubjectRef gasLastDay =
        subjects.registerSubject("G-7", local("2024-12-31T12:00"), Commodity.GAS, NOW);

    assertThat(gasBefore.year()).isEqualTo(Year.of(2024));
    assertThat(gasBefore).isEqualTo(gasLastDay);
    assertThat(gasAt6.year()).isEqualTo(Year.of(2025));
    assertThat(powerBefore).isEqualTo(gasAt6);
  }

  @Test
  void identifiersAreNormalisedBeforeTheyIdentifyAPerson() {
    Instant at = local("2025-05-05T12:00");
    SubjectRef plain = subjects.registerSubject("ab-12", at, Commodity.STROM, NOW);
    assertThat(subjects.registerSubject("  AB-12\t", at, Commodity.STROM, NOW)).isEqualTo(plain);
    // NFKC folds the full-width forms into ASCII
    assertThat(subjects.registerSubject("ＡＢ－１２", at, Commodity.STROM, NOW)).isEqualTo(plain);
  }

  @Test
  void referencesAreUrlSafeCarryTheirYearAndAre128RandomBits() {
    Set<SubjectRef> seen = new HashSet<>();
    int[] ones = new int[128];
    int count = 256;
    for (int i = 0; i < count; i++) {
      SubjectRef ref =
          subjects.registerSubject("R-" + i, local("2027-07-07T07:00"), Commodity.STROM, NOW);
      assertThat(ref.value()).matches("s2027_[A-Za-z0-9_-]{22}");
      seen.add(ref);
      byte[] bits = Base64.getUrlDecoder().decode(ref.value().substring(6));
      assertThat(bits).hasSize(16);
      for (int b = 0; b < 128; b++) {
        ones[b] += (bits[b / 8] >> (b % 8)) & 1;
      }
    }
    assertThat(seen).hasSize(count);
    // every one of the 128 bits varies (a constant or derived bit would not); chance of a false
    // alarm: 128 * 2^-255
    assertThat(IntStream.of(ones).boxed().toList())
        .allSatisfy(n -> assertThat(n).isBetween(1, count - 1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", "KD\u0000-1", "KD\n42"})
  void refusesAnUnusableIdentifierWithoutShowingIt(String naturalId) {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> subjects.registerSubject(naturalId, NOW, Commodity.STROM, NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage()).contains("Invalid natural id: (not shown)");
    if (!naturalId.isBlank()) {
      assertThat(e.getMessage()).doesNotContain("KD");
    }
  }

  @Test
  void refusesAnIdentifierLongerThan256Characters() {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> subjects.registerSubject("x".repeat(257), NOW, Commodity.STROM, NOW));
    assertThat(e.getMessage()).doesNotContain("xxx").contains("1 to 256 characters");
  }

  @ParameterizedTest
  @ValueSource(strings = {"subjects", "subject_holds", "subject_suppressions", "erasure_trail"})
  void refusesADeclaredTableNamedLikeARegistryTable(String name) {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.createTables(List.of(TableDefinition.interval(name)), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage()).contains(name, "reserved");
  }

  @Test
  void concurrentRegistrationsOfOneIdentifierAgreeOnOneReference() throws Exception {
    int threads = 6;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<SubjectRef>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return subjects.registerSubject(
                      "C-RACE", local("2026-02-02T02:00"), Commodity.STROM, NOW);
                }));
      }
      start.countDown();
      Set<SubjectRef> refs = new HashSet<>();
      for (Future<SubjectRef> f : futures) {
        refs.add(f.get());
      }
      assertThat(refs).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    assertThat(
            Fixtures.scalar(
                database, "SELECT count(*) FROM registration.subjects WHERE natural_id = 'C-RACE'"))
        .isEqualTo(1);
  }
}
