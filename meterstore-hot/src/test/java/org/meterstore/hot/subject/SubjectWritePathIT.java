package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.LASTGANG;
import static org.meterstore.hot.subject.PrivacyFixtures.local;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The write path accepts only subject references the registry backs, for the reading's year. */
@ExtendWith(PostgresExtension.class)
class SubjectWritePathIT {
  private static final String SCHEMA = "writepath";
  private static final String UNBACKED = "s2026_AAAAAAAAAAAAAAAAAAAAAA";

  private static PrivacyFixtures.Metrics metrics;
  private static HotStore store;
  private static TestDatabase database;

  @BeforeAll
  static void open(TestDatabase db) {
    database = db;
    metrics = new PrivacyFixtures.Metrics();
    store = PrivacyFixtures.store(db, SCHEMA, null, metrics);
    store.createTables(List.of(LASTGANG), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
    metrics.close();
  }

  @Test
  void acceptsAReferenceTheRegistryBacksForTheReadingsYear() throws SQLException {
    SubjectRef ref = store.subjects().registerSubject("W-1", DAY, Commodity.STROM, NOW);
    List<Reading> day = withSubject(Fixtures.day(1, DAY, "20260303000000"), ref.value(), -1, null);

    assertThat(store.write(LASTGANG, day, NOW).outcomes())
        .hasSize(96)
        .containsOnly(WriteOutcome.INSERTED);
    assertThat(
            Fixtures.scalar(
                database,
                "SELECT count(*) FROM writepath.lastgang WHERE subject = '" + ref.value() + "'"))
        .isEqualTo(96);
  }

  @Test
  void refusesTheWholeBatchWhenOneReadingNamesAnUnbackedReference() throws SQLException {
    SubjectRef ref = store.subjects().registerSubject("W-2", DAY, Commodity.STROM, NOW);
    List<Reading> day =
        withSubject(Fixtures.day(2, DAY, "20260303000000"), ref.value(), 5, UNBACKED);

    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(LASTGANG, day, NOW));

    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage())
        .startsWith("Cannot write to table lastgang: reading #5 ")
        .contains(UNBACKED, "subject_is_registered", "nothing of the batch was stored");
    assertThat(rowsOf(2)).isZero();
  }

  @Test
  void refusesAReferenceOfAnotherCollectionYear() throws SQLException {
    SubjectRef lastYear =
        store.subjects().registerSubject("W-3", local("2025-06-01T12:00"), Commodity.STROM, NOW);
    List<Reading> day =
        withSubject(Fixtures.day(3, DAY, "20260303000000"), lastYear.value(), -1, null);

    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(LASTGANG, day, NOW));

    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage())
        .contains(
            "reading #0 ",
            "of collection year 2025, but the reading belongs to balancing year 2026",
            "subject_year_matches_reading");
    assertThat(rowsOf(3)).isZero();
  }

  @Test
  void refusesAMalformedReferenceBeforeAskingTheRegistry() throws SQLException {
    List<Reading> day =
        withSubject(Fixtures.day(4, DAY, "20260303000000"), null, 95, "customer-4711");

    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(LASTGANG, day, NOW));

    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage()).contains("reading #95 ", "malformed subject");
    assertThat(rowsOf(4)).isZero();
  }

  @Test
  void refusesAReferenceWhoseMappingWasErased() throws SQLException {
    SubjectRef ref = store.subjects().registerSubject("W-5", DAY, Commodity.STROM, NOW);
    store.subjects().eraseSubject(ref, PrivacyFixtures.REASON, PrivacyFixtures.ACTOR, NOW);
    List<Reading> day = withSubject(Fixtures.day(5, DAY, "20260303000000"), ref.value(), -1, null);

    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(LASTGANG, day, NOW));

    assertThat(e.getMessage()).contains("subject_is_registered");
    assertThat(rowsOf(5)).isZero();
  }

  @Test
  void readingsWithoutASubjectNeedNoRegistry() {
    assertThat(store.write(LASTGANG, Fixtures.day(6, DAY, "20260303000000"), NOW).stored())
        .isEqualTo(96);
  }

  /** {@code readings} with {@code subject} on each, and {@code other} on reading {@code at}. */
  private static List<Reading> withSubject(
      List<Reading> readings, String subject, int at, String other) {
    List<Reading> out = new ArrayList<>();
    for (int i = 0; i < readings.size(); i++) {
      out.add(readings.get(i).toBuilder().subject(i == at ? other : subject).build());
    }
    return out;
  }

  private static long rowsOf(int meter) throws SQLException {
    return Fixtures.scalar(
        database,
        "SELECT count(*) FROM writepath.lastgang WHERE malo_id = '" + Fixtures.malo(meter) + "'");
  }
}
