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

  @Test
  void aRedeliveredDayWithCorrectionsIsDecidedKeyByKey() throws SQLException {
    assertThat(store.write(TABLE, Fixtures.day(1, DAY, "20260303000000"), NOW).stored())
        .isEqualTo(96);
    // the neighbouring day and another meter's same day are stored too: inside no range but close
    store.write(TABLE, Fixtures.day(1, DAY.plus(Duration.ofDays(1)), "20260303000000"), NOW);
    store.write(TABLE, Fixtures.day(2, DAY, "20260303000000"), NOW);

    List<Reading> again = new ArrayList<>(Fixtures.day(1, DAY, "20260303000000"));
    // every tenth quarter-hour corrected in version 2
    for (int i = 0; i < 96; i += 10) {
      Instant from = DAY.plus(Duration.ofMinutes(15L * i));
      again.set(i, Fixtures.quarterHour(1, from, "9.5", "20260304000000").build());
    }
    WriteResult result = store.write(TABLE, again, NOW);
    assertThat(result.stored()).isEqualTo(10);
    assertThat(result.duplicates()).isEqualTo(86);
    for (int i = 0; i < 96; i++) {
      assertThat(result.outcomes().get(i))
          .as("quarter-hour %s", i)
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
    assertThat(store.write(TABLE, again, NOW).duplicates()).isEqualTo(96);
  }

  @Test
  void aTwoDayBatchOverAStoredFirstDayStoresOnlyTheSecond() throws SQLException {
    Instant day = DAY.plus(Duration.ofDays(10));
    store.write(TABLE, Fixtures.day(3, day, "20260303000000"), NOW);
    List<Reading> twoDays = new ArrayList<>(Fixtures.day(3, day, "20260303000000"));
    twoDays.addAll(Fixtures.day(3, day.plus(Duration.ofDays(1)), "20260303000000"));
    WriteResult result = store.write(TABLE, twoDays, NOW);
    assertThat(result.duplicates()).isEqualTo(96);
    assertThat(result.stored()).isEqualTo(96);
  }
}
