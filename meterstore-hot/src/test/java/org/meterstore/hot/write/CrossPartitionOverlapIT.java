package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Spans that cross a partition bound, where no per-partition constraint can see the overlap: a
 * daily (P1D) reading of a Berlin day, {@code [23:00Z, 23:00Z)}, starts in one UTC-day partition
 * and ends in the next.
 */
@ExtendWith(PostgresExtension.class)
class CrossPartitionOverlapIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant BERLIN_DAY = Instant.parse("2026-03-02T23:00:00Z");
  private static final Instant NEXT_UTC_DAY_10H = Instant.parse("2026-03-03T10:00:00Z");
  private static final String V1 = "20260304000000";

  private static HotStore store;
  private final TestDatabase db;

  CrossPartitionOverlapIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void open(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void refusesACrossingSpanOverlappingAStoredSpanInTheNextPartition() throws SQLException {
    store.write(TABLE, List.of(quarterHour(1, NEXT_UTC_DAY_10H, "1", V1).build()), NOW);
    List<String> before = Fixtures.rows(db, SCHEMA, TABLE.name());
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class,
            () -> store.write(TABLE, List.of(daily(1, BERLIN_DAY)), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    assertThat(e.getMessage())
        .contains(
            "Cannot write to table lastgang",
            "reading #0 Reading[" + Fixtures.malo(1),
            "overlaps a stored span of the same reading and version in another partition",
            "(constraint spans_do_not_overlap)");
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
  }

  @Test
  void refusesASpanOverlappingAStoredCrossingSpanFromThePreviousPartition() throws SQLException {
    assertThat(store.write(TABLE, List.of(daily(2, BERLIN_DAY)), NOW).outcome(0))
        .isEqualTo(WriteOutcome.INSERTED);
    List<String> before = Fixtures.rows(db, SCHEMA, TABLE.name());
    Reading inside = quarterHour(2, NEXT_UTC_DAY_10H, "1", V1).build();
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> store.write(TABLE, List.of(inside), NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    assertThat(e.getMessage())
        .contains("reading #0 Reading[" + Fixtures.malo(2), "(constraint spans_do_not_overlap)");
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
  }

  @Test
  void refusesACrossingSpanOverlappingAnotherOfTheSameBatch() throws SQLException {
    List<String> before = Fixtures.rows(db, SCHEMA, TABLE.name());
    List<Reading> batch =
        List.of(quarterHour(3, NEXT_UTC_DAY_10H, "1", V1).build(), daily(3, BERLIN_DAY));
    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> store.write(TABLE, batch, NOW));
    assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    assertThat(e.getMessage()).contains("reading #1", "overlaps reading #0 of the same batch");
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
  }

  @Test
  void acceptsAdjacentCrossingSpansAndOtherVersionsOverTheSameSpan() {
    Instant nextDay = BERLIN_DAY.plus(Duration.ofDays(1));
    WriteResult result = store.write(TABLE, List.of(daily(4, BERLIN_DAY), daily(4, nextDay)), NOW);
    assertThat(result.outcomes()).containsOnly(WriteOutcome.INSERTED);
    Reading quarter = quarterHour(4, NEXT_UTC_DAY_10H, "1", "20260305000000").build();
    assertThat(store.write(TABLE, List.of(quarter), NOW).outcome(0))
        .isEqualTo(WriteOutcome.INSERTED);
    assertThat(store.write(TABLE, List.of(daily(4, BERLIN_DAY)), NOW).outcome(0))
        .isEqualTo(WriteOutcome.DUPLICATE);
  }

  private static Reading daily(int meter, Instant berlinMidnight) {
    return quarterHour(meter, berlinMidnight, "24", V1)
        .resolution(Resolution.P1D)
        .interval(berlinMidnight, berlinMidnight.plus(Duration.ofDays(1)))
        .build();
  }
}
