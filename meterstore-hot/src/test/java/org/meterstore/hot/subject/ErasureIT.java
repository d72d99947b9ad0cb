package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.ACTOR;
import static org.meterstore.hot.subject.PrivacyFixtures.LASTGANG;
import static org.meterstore.hot.subject.PrivacyFixtures.REASON;
import static org.meterstore.hot.subject.PrivacyFixtures.local;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** Art. 17 erasure: the link goes, the readings stay, and the trail never learns who it was. */
@ExtendWith(PostgresExtension.class)
class ErasureIT {
  private static final String SCHEMA = "erasure";
  private static final Instant DAY_2025 = local("2025-01-02T00:00");
  private static final Instant DAY_2026 = local("2026-03-02T00:00");
  private static final Instant LATER = NOW.plus(Duration.ofDays(1));

  private static PrivacyFixtures.Metrics metrics;
  private static HotStore store;
  private static Subjects subjects;
  private static TestDatabase database;

  @BeforeAll
  static void open(TestDatabase db) {
    database = db;
    metrics = new PrivacyFixtures.Metrics();
    store =
        PrivacyFixtures.store(
            db, SCHEMA, ErasureKeys.single("k1", PrivacyFixtures.secret(1)), metrics);
    store.createTables(List.of(LASTGANG), NOW);
    subjects = store.subjects();
  }

  @AfterAll
  static void close() {
    store.close();
    metrics.close();
  }

  @Test
  void afterAnErasureEveryReadingRemainsAndNoTableOfTheSchemaHoldsTheIdentifier()
      throws SQLException {
    String erased = "Kundennummer-880017";
    String kept = "Kundennummer-880018";
    write(10, erased, DAY_2025);
    write(10, erased, DAY_2026);
    write(11, kept, DAY_2026);
    long rowsBefore = Fixtures.scalar(database, "SELECT count(*) FROM erasure.lastgang");
    BigDecimal sumBefore = sum();
    // the probe finds an identifier that is present, so its zero below means something
    assertThat(PrivacyFixtures.occurrencesInSchema(database, SCHEMA, erased)).isEqualTo(2);

    ErasureResult result = subjects.eraseSubject(erased, REASON, ACTOR, NOW);

    assertThat(result.count()).isEqualTo(2);
    assertThat(result.erased()).extracting(r -> r.year().getValue()).containsOnly(2025, 2026);
    assertThat(result.suppressionKeyId()).isEqualTo("k1");
    assertThat(Fixtures.scalar(database, "SELECT count(*) FROM erasure.lastgang"))
        .isEqualTo(rowsBefore)
        .isEqualTo(3 * 96);
    assertThat(sum()).isEqualByComparingTo(sumBefore);
    assertThat(PrivacyFixtures.occurrencesInSchema(database, SCHEMA, erased)).isZero();
    assertThat(PrivacyFixtures.occurrencesInSchema(database, SCHEMA, "880017")).isZero();
    assertThat(PrivacyFixtures.occurrencesInSchema(database, SCHEMA, kept)).isEqualTo(1);
    // the readings still name the references, which now lead nowhere
    assertThat(
            Fixtures.scalar(
                database,
                "SELECT count(*) FROM erasure.lastgang l JOIN erasure.subjects s"
                    + " ON s.reference = l.subject WHERE l.subject = ANY(ARRAY['"
                    + result.erased().get(0)
                    + "', '"
                    + result.erased().get(1)
                    + "'])"))
        .isZero();

    TrailEntry entry = lastErasureAt(NOW);
    assertThat(entry.trigger()).isEqualTo(Trigger.REQUEST);
    assertThat(entry.references()).containsExactlyElementsOf(result.erased());
    assertThat(entry.affected()).isEqualTo(2);
    assertThat(entry.reason()).isEqualTo(REASON);
    assertThat(entry.actor()).isEqualTo(ACTOR);
    assertThat(entry.suppressionKeyId()).isEqualTo("k1");
    assertThat(entry.toString()).doesNotContainIgnoringCase(erased).doesNotContain("880017");
  }

  @Test
  void erasingByReferenceErasesEveryYearOfThatPersonAndCountsThem() {
    long before = metrics.erased(Trigger.REQUEST);
    SubjectRef y2025 = subjects.registerSubject("P-20", DAY_2025, Commodity.STROM, NOW);
    SubjectRef y2026 = subjects.registerSubject("P-20", DAY_2026, Commodity.STROM, NOW);
    SubjectRef other = subjects.registerSubject("P-21", DAY_2026, Commodity.STROM, NOW);

    ErasureResult result = subjects.eraseSubject(y2026, REASON, ACTOR, NOW);

    assertThat(result.erased()).containsExactlyInAnyOrder(y2025, y2026);
    assertThat(metrics.erased(Trigger.REQUEST) - before).isEqualTo(2);
    assertThat(metrics.points("meterstore.subjects_erased"))
        .allSatisfy(p -> assertThat(p.getAttributes().asMap()).hasSize(1));
    assertThat(subjects.registerSubject("P-21", DAY_2026, Commodity.STROM, NOW)).isEqualTo(other);
  }

  @Test
  void erasingAnAlreadyErasedReferenceChangesNothingAndIsStillAudited() {
    SubjectRef ref = subjects.registerSubject("P-30", DAY_2026, Commodity.STROM, NOW);
    subjects.eraseSubject(ref, REASON, ACTOR, NOW);
    long before = metrics.erased(Trigger.REQUEST);

    ErasureResult again = subjects.eraseSubject(ref, "repeated request", ACTOR, LATER);

    assertThat(again.count()).isZero();
    assertThat(again.suppressed()).isFalse();
    assertThat(metrics.erased(Trigger.REQUEST)).isEqualTo(before);
    TrailEntry entry = lastErasureAt(LATER);
    assertThat(entry.reason()).isEqualTo("repeated request");
    assertThat(entry.affected()).isZero();
    assertThat(entry.references()).isEmpty();
  }

  @Test
  void aPersonUnderALegalHoldIsNotErasedUntilTheHoldIsReleased() {
    SubjectRef ref = subjects.registerSubject("P-40", DAY_2026, Commodity.STROM, NOW);
    subjects.holdSubject(ref, "billing dispute 17", null, ACTOR, NOW);

    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> subjects.eraseSubject("P-40", REASON, ACTOR, NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    assertThat(e.getMessage()).contains(ref.value(), "legal hold").doesNotContain("P-40");
    assertThat(subjects.registerSubject("P-40", DAY_2026, Commodity.STROM, NOW)).isEqualTo(ref);

    assertThat(subjects.releaseHold(ref, "dispute settled", ACTOR, NOW)).isTrue();
    assertThat(subjects.releaseHold(ref, "dispute settled", ACTOR, NOW)).isFalse();
    assertThat(subjects.eraseSubject("P-40", REASON, ACTOR, NOW).erased()).containsExactly(ref);

    List<TrailEntry> trail = subjects.trail(NOW, LATER, 100_000);
    List<TrailAction> actions = new ArrayList<>();
    for (TrailEntry t : trail) {
      if (t.references().contains(ref)) {
        actions.add(t.action());
      }
    }
    assertThat(actions).containsExactly(TrailAction.HOLD, TrailAction.RELEASE, TrailAction.ERASE);
  }

  @Test
  void aHoldNeedsAMappingThatExistsAndAnEndAfterNow() {
    SubjectRef ref = subjects.registerSubject("P-45", DAY_2026, Commodity.STROM, NOW);
    MeterStoreException past =
        catchThrowableOfType(
            MeterStoreException.class, () -> subjects.holdSubject(ref, "dispute", NOW, ACTOR, NOW));
    assertThat(past.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(past.getMessage()).startsWith("Invalid until:");

    subjects.eraseSubject(ref, REASON, ACTOR, NOW);
    MeterStoreException erased =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> subjects.holdSubject(ref, "dispute", null, ACTOR, NOW));
    assertThat(erased.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(erased.getMessage()).contains(ref.value(), "not in the registry");
    assertThat(subjects.releaseHold(ref, "dispute settled", ACTOR, NOW)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "UPDATE erasure.erasure_trail SET actor = 'someone else'",
        "DELETE FROM erasure.erasure_trail",
        "TRUNCATE erasure.erasure_trail"
      })
  void theTrailRefusesEveryChangeButAnAppend(String statement) throws SQLException {
    subjects.eraseSubject("P-50", REASON, ACTOR, NOW);
    long entries = Fixtures.scalar(database, "SELECT count(*) FROM erasure.erasure_trail");
    try (Connection c = database.connect();
        Statement s = c.createStatement()) {
      SQLException e = catchThrowableOfType(SQLException.class, () -> s.execute(statement));
      assertThat(e.getMessage()).contains("erasure_trail is append-only");
    }
    assertThat(Fixtures.scalar(database, "SELECT count(*) FROM erasure.erasure_trail"))
        .isEqualTo(entries);
  }

  @Test
  void refusesAReasonOrActorThatContainsTheIdentifier() {
    for (Runnable call :
        List.<Runnable>of(
            () -> subjects.eraseSubject("P-60", "request from p-60 by mail", ACTOR, NOW),
            () -> subjects.eraseSubject("P-60", REASON, "P-60", NOW))) {
      MeterStoreException e = catchThrowableOfType(MeterStoreException.class, call::run);
      assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
      assertThat(e.getMessage()).contains("must not contain the natural id").doesNotContain("60");
    }
  }

  @Test
  void erasuresAreQueriedByPeriodAndTrigger() {
    Instant at = local("2030-05-05T10:00");
    subjects.registerSubject("P-70", DAY_2026, Commodity.STROM, NOW);
    subjects.eraseSubject("P-70", REASON, ACTOR, at);

    assertThat(subjects.erasures(at, at.plusSeconds(1), Trigger.REQUEST, 10)).hasSize(1);
    assertThat(subjects.erasures(at, at.plusSeconds(1), null, 10)).hasSize(1);
    assertThat(subjects.erasures(at, at.plusSeconds(1), Trigger.RETENTION, 10)).isEmpty();
    assertThat(subjects.erasures(at.plusSeconds(1), at.plusSeconds(2), null, 10)).isEmpty();
    assertThat(subjects.erasures(NOW, at.plusSeconds(1), null, 1)).hasSize(1);
  }

  private static void write(int meter, String naturalId, Instant dayStart) {
    SubjectRef ref = subjects.registerSubject(naturalId, dayStart, Commodity.STROM, NOW);
    List<Reading> day = new ArrayList<>();
    for (Reading r : Fixtures.day(meter, dayStart, "20260303000000")) {
      day.add(r.toBuilder().subject(ref.value()).build());
    }
    store.write(LASTGANG, day, NOW);
  }

  private static BigDecimal sum() throws SQLException {
    try (Connection c = database.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT sum(value) FROM erasure.lastgang")) {
      rs.next();
      return rs.getBigDecimal(1);
    }
  }

  /** The newest erasure entry recorded at {@code at}. */
  private static TrailEntry lastErasureAt(Instant at) {
    List<TrailEntry> all = subjects.erasures(at, at.plusMillis(1), null, 100_000);
    return all.get(all.size() - 1);
  }
}
