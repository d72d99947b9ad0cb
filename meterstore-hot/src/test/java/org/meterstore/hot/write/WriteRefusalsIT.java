package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Every refusal of a write: its error kind, a message naming the table (where the table was
 * reached), the reading and the rule, and a table that holds exactly what it held before.
 */
@ExtendWith(PostgresExtension.class)
class WriteRefusalsIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final TableDefinition REGISTER = TableDefinition.point("zaehlerstand");
  private static final String V1 = "20260303000000";
  private static final String V2 = "20260304000000";
  private static final Instant T0 = DAY.plus(Duration.ofHours(10));

  private static HotStore store;
  private final TestDatabase db;
  private List<String> before;

  WriteRefusalsIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void createTables(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE, REGISTER), NOW);
    store.write(TABLE, Fixtures.day(1, DAY, V1), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @BeforeEach
  void snapshot() throws SQLException {
    before = Fixtures.rows(db, SCHEMA, TABLE.name());
    assertThat(before).hasSizeGreaterThanOrEqualTo(96);
  }

  @Test
  void refusesABadCheckDigit() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "1", V1).malo("51238696782").build()),
        ErrorKind.INVALID_INPUT,
        "MaLo-ID",
        "51238696782",
        "check digit 1 expected");
  }

  @Test
  void refusesANonCanonicalObisCode() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "1", V1).obis("1.8.0").build()),
        ErrorKind.INVALID_INPUT,
        "OBIS code",
        "'1.8.0'",
        "short form");
  }

  @Test
  void refusesAUnitWrongForTheCommodity() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "1", V1).unit(Unit.M3).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid unit: 'M3'",
        "STROM is measured in [KWH]");
  }

  @Test
  void refusesAnEndNotAfterTheStart() throws SQLException {
    refused(
        () ->
            batchWith(() -> quarterHour(2, T0, "1", V1).resolution(null).interval(T0, T0).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid to",
        "must be after from " + T0);
  }

  @Test
  void refusesAnIntervalNotAlignedWithItsResolution() throws SQLException {
    Instant off = T0.plus(Duration.ofMinutes(7));
    refused(
        () -> batchWith(() -> quarterHour(2, off, "1", V1).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid interval",
        off.toString(),
        "not aligned with its resolution PT15M");
  }

  @Test
  void refusesAValueWithMoreThanSixDecimals() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "0.0000001", V1).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid value: '0.0000001'",
        "at most 6 decimals");
  }

  @Test
  void refusesAValueBeyondEighteenDigits() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "1234567890123", V1).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid value: '1234567890123'",
        "at most 18 digits");
  }

  @Test
  void refusesAValueThatIsNotFinite() throws SQLException {
    refused(
        () -> batchWith(() -> quarterHour(2, T0, "1", V1).value(Double.NaN).build()),
        ErrorKind.INVALID_INPUT,
        "Invalid value: 'NaN'",
        "a finite number");
  }

  @Test
  void refusesAScopeThatDoesNotCoverTheInterval() throws SQLException {
    refused(
        () ->
            batchWith(
                () ->
                    quarterHour(2, T0, "1", V1)
                        .versionScope(Fixtures.OPERATOR + ":2026-04")
                        .build()),
        ErrorKind.INVALID_INPUT,
        "Invalid version_scope: '" + Fixtures.OPERATOR + ":2026-04'",
        "does not cover the STROM interval [" + T0);
  }

  @Test
  void refusesAReadingOfTheWrongTimeModel() throws SQLException {
    Reading point =
        quarterHour(2, T0, "1", V1)
            .resolution(null)
            .interval(T0, (Instant) null)
            .melo(melo())
            .build();
    refused(
        () -> store.write(TABLE, withValidReadings(point), NOW),
        ErrorKind.INVALID_INPUT,
        "Cannot write to table lastgang",
        "reading #1 Reading[" + Fixtures.malo(2),
        "table lastgang holds INTERVAL readings only");
  }

  @Test
  void refusesAnIntervalReadingInAPointTable() throws SQLException {
    List<String> registerBefore = Fixtures.rows(db, SCHEMA, REGISTER.name());
    Reading interval = quarterHour(2, T0, "1", V1).melo(melo()).build();
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> store.write(REGISTER, List.of(interval), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage())
        .contains("Cannot write to table zaehlerstand", "reading #0", "holds POINT readings only");
    assertThat(Fixtures.rows(db, SCHEMA, REGISTER.name())).isEqualTo(registerBefore);
  }

  @Test
  void refusesAValueRestatedUnderAnExistingVersion() throws SQLException {
    Reading restated = quarterHour(1, DAY, "7.5", V1).build();
    refused(
        () -> store.write(TABLE, withValidReadings(restated), NOW),
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot write to table lastgang",
        "reading #1 Reading[" + Fixtures.malo(1) + " 1-0:1.8.0 from " + DAY,
        "restates version " + V1,
        "stored 0.001000 KWH MEASURED",
        "delivered 7.500000 KWH MEASURED",
        "(value restated under an existing version)");
  }

  @Test
  void refusesAValueRestatedTwiceWithinOneBatch() throws SQLException {
    Instant t = DAY.plus(Duration.ofHours(30));
    Reading first = quarterHour(3, t, "1", V1).build();
    Reading second = quarterHour(3, t, "2", V1).build();
    refused(
        () -> store.write(TABLE, List.of(first, second), NOW),
        ErrorKind.INTEGRITY_VIOLATION,
        "reading #1",
        "(value restated under an existing version)");
  }

  @Test
  void refusesASpanOverlappingAStoredSpanOfTheSameVersion() throws SQLException {
    Instant from = DAY.plus(Duration.ofMinutes(5));
    Reading overlapping =
        quarterHour(1, from, "1", V1)
            .resolution(null)
            .interval(from, from.plus(Duration.ofMinutes(15)))
            .build();
    refused(
        () -> store.write(TABLE, withValidReadings(overlapping), NOW),
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot write to table lastgang",
        "reading #1 Reading[" + Fixtures.malo(1),
        "overlaps a stored span",
        "(constraint spans_do_not_overlap)");
  }

  @Test
  void refusesSpansOverlappingWithinOneBatch() throws SQLException {
    Instant from = DAY.plus(Duration.ofHours(40));
    Reading hour =
        quarterHour(4, from, "4", V1)
            .resolution(Resolution.PT1H)
            .interval(from, Resolution.PT1H)
            .build();
    Reading quarter = quarterHour(4, from.plus(Duration.ofMinutes(30)), "1", V1).build();
    refused(
        () -> store.write(TABLE, List.of(hour, quarter), NOW),
        ErrorKind.INTEGRITY_VIOLATION,
        "reading #1",
        "overlaps reading #0 of the same batch",
        "(constraint spans_do_not_overlap)");
  }

  @Test
  void refusesASecondOperatorForOneReading() throws SQLException {
    Reading other = quarterHour(1, DAY, "0.001", V2).operator(Fixtures.OTHER_OPERATOR).build();
    refused(
        () -> store.write(TABLE, withValidReadings(other), NOW),
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot write to table lastgang",
        "reading #1 Reading[" + Fixtures.malo(1),
        "names operator " + Fixtures.OTHER_OPERATOR + ", but " + Fixtures.OPERATOR,
        "(constraint one_operator_per_reading)");
  }

  @Test
  void refusesAReadingBelowTheFloor() throws SQLException {
    Instant floor = DAY.plus(Duration.ofDays(1));
    Reading below = quarterHour(2, T0, "1", V1).build();
    refused(
        () ->
            store.write(TABLE, List.of(quarterHour(2, floor, "1", V1).build(), below), NOW, floor),
        ErrorKind.INVALID_INPUT,
        "Cannot write to table lastgang",
        "reading #1 Reading[" + Fixtures.malo(2),
        "starts before the table's floor " + floor,
        "routes them to the cold tier");
    BelowFloorException e =
        catchThrowableOfType(
            BelowFloorException.class, () -> store.write(TABLE, List.of(below), NOW, floor));
    assertThat(e.reason()).isEqualTo(BelowFloorException.Reason.BELOW_FLOOR);
    assertThat(e.floor()).contains(floor);
    assertThat(e.readingFrom()).contains(T0);
  }

  @Test
  void acceptsTheSameReadingsOnceTheOffenderIsRemoved() {
    WriteResult result = store.write(TABLE, withValidReadings(), NOW);
    assertThat(result.stored()).isEqualTo(2);
  }

  /** Two valid readings of another meter around {@code offenders}: they must not be stored. */
  private static List<Reading> withValidReadings(Reading... offenders) {
    List<Reading> batch = new ArrayList<>();
    batch.add(quarterHour(9, DAY.plus(Duration.ofHours(50)), "1", V1).build());
    batch.addAll(List.of(offenders));
    batch.add(quarterHour(9, DAY.plus(Duration.ofHours(51)), "1", V1).build());
    return batch;
  }

  private static WriteResult batchWith(Supplier<Reading> offender) {
    List<Reading> batch = new ArrayList<>();
    batch.add(quarterHour(9, DAY.plus(Duration.ofHours(60)), "1", V1).build());
    batch.add(offender.get());
    return store.write(TABLE, batch, NOW);
  }

  private void refused(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable write,
      ErrorKind kind,
      String... messageParts)
      throws SQLException {
    MeterStoreException e = catchThrowableOfType(MeterStoreException.class, write);
    assertThat(e).as("refusal").isNotNull();
    assertThat(e.kind()).isEqualTo(kind);
    assertThat(e.isRetryable()).isFalse();
    assertThat(e.getMessage()).contains(messageParts);
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
  }

  private static String melo() {
    return "DE0001234567890123456789012345678";
  }
}
