package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
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
 * Dense batches of a grid table read their stored versions by one range per location and OBIS code:
 * every outcome is the one a probe per key gives — redelivered quarter-hours are duplicates, new
 * versions are stored beside the old, and readings of a neighbouring day, of another OBIS code or
 * of another meter inside the range are never taken for the batch's.
 */
@ExtendWith(PostgresExtension.class)
class RangeLookupIT {
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang").withResolution(Resolution.PT15M);
  private static final Instant DAY = Instant.parse("2026-03-02T23:00:00Z");
  private static final String V1 = "20260303000000";
  private static HotStore store;
  private final TestDatabase db;

  RangeLookupIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    store = Fixtures.store(db, "meterstore", Duration.ofSeconds(3));
    store.createTables(List.of(TABLE), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  /** The day of meters {@code first} to {@code last}, in {@code version}. */
  private static List<Reading> days(int first, int last, Instant day, String version) {
    List<Reading> out = new ArrayList<>();
    for (int m = first; m <= last; m++) {
      out.addAll(Fixtures.day(m, day, version));
    }
    return out;
  }

  @Test
  void aRedeliveredDayWithCorrectionsIsDecidedKeyByKey() throws SQLException {
    // six meter-days, 576 keys: enough for ranges (StoredVersions.RANGE_KEYS)
    assertThat(store.write(TABLE, days(1, 6, DAY, V1), NOW).stored()).isEqualTo(576);
    // the neighbouring day and another meter's same day are stored too: close to the ranges
    store.write(TABLE, days(1, 6, DAY.plus(Duration.ofDays(1)), V1), NOW);
    store.write(TABLE, Fixtures.day(7, DAY, V1), NOW);

    List<Reading> again = days(1, 6, DAY, V1);
    // every tenth reading corrected in a second version
    for (int i = 0; i < again.size(); i += 10) {
      Reading r = again.get(i);
      again.set(i, Fixtures.quarterHour(1 + i / 96, r.from(), "9.5", "20260304000000").build());
    }
    WriteResult result = store.write(TABLE, again, NOW);
    assertThat(result.count(WriteOutcome.SUPERSEDED)).isEqualTo(58);
    assertThat(result.duplicates()).isEqualTo(518);
    for (int i = 0; i < again.size(); i++) {
      assertThat(result.outcomes().get(i))
          .as("reading %s", i)
          .isEqualTo(i % 10 == 0 ? WriteOutcome.SUPERSEDED : WriteOutcome.DUPLICATE);
    }
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM meterstore.lastgang WHERE malo_id = '"
                    + Fixtures.malo(1)
                    + "'"))
        .isEqualTo(96 + 96 + 10);
    // the same batch once more: all of it is stored already
    assertThat(store.write(TABLE, again, NOW).duplicates()).isEqualTo(576);
  }

  @Test
  void aTwoDayBatchOverAStoredFirstDayStoresOnlyTheSecond() throws SQLException {
    Instant day = DAY.plus(Duration.ofDays(10));
    store.write(TABLE, days(8, 10, day, V1), NOW);
    List<Reading> twoDays = new ArrayList<>();
    for (int m = 8; m <= 10; m++) {
      twoDays.addAll(Fixtures.day(m, day, V1));
      twoDays.addAll(Fixtures.day(m, day.plus(Duration.ofDays(1)), V1));
    }
    WriteResult result = store.write(TABLE, twoDays, NOW);
    assertThat(result.duplicates()).isEqualTo(288);
    assertThat(result.count(WriteOutcome.INSERTED)).isEqualTo(288);
  }
}
