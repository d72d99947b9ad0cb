package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The race the writer's plain {@code INSERT} leaves to a retry: another transaction stores rows of
 * the batch after the writer read the stored versions and before it inserts. The writer's insert
 * waits on the primary key, fails with a unique violation once the other transaction commits, rolls
 * back whole and retries; the retry reads the other rows and decides the batch.
 */
@ExtendWith(PostgresExtension.class)
class ConcurrentRedeliveryIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final String VERSION = "20260303000000";
  private static final Duration SLACK = Duration.ofSeconds(30);

  private static HotStore store;
  private static ExecutorService executor;

  @BeforeAll
  static void createTable(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE), NOW);
    store.partitions().ensure(TABLE, DAY, DAY.plus(Duration.ofDays(1)));
    executor = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void close() {
    executor.shutdownNow();
    store.close();
  }

  @Test
  void identicalRowsCommittedWhileTheBatchWaitsAreDuplicate(TestDatabase db) throws Exception {
    List<Reading> day = Fixtures.day(3, DAY, VERSION);
    Future<WriteResult> write = raceAgainst(db, day, day);

    WriteResult result = write.get(SLACK.toSeconds(), TimeUnit.SECONDS);

    assertThat(result.outcomes()).hasSize(96).containsOnly(WriteOutcome.DUPLICATE);
    assertThat(rowsOf(db, Fixtures.malo(3))).isEqualTo(96);
  }

  /** The same race for a batch large enough to be written with {@code COPY}. */
  @Test
  void rowsCommittedWhileALargeBatchWaitsAreDuplicateAndTheRestIsStored(TestDatabase db)
      throws Exception {
    List<Reading> ours = new ArrayList<>();
    for (int meter = 10; meter < 22; meter++) {
      ours.addAll(Fixtures.day(meter, DAY, VERSION));
    }
    List<Reading> theirs = Fixtures.day(15, DAY, VERSION);
    Future<WriteResult> write = raceAgainst(db, ours, theirs);

    WriteResult result = write.get(SLACK.toSeconds(), TimeUnit.SECONDS);

    assertThat(result.outcomes()).hasSize(12 * 96);
    assertThat(result.duplicates()).isEqualTo(96);
    assertThat(result.stored()).isEqualTo(11 * 96);
    for (int meter = 10; meter < 22; meter++) {
      assertThat(rowsOf(db, Fixtures.malo(meter))).isEqualTo(96);
    }
  }

  @Test
  void differentValuesCommittedWhileTheBatchWaitsAreRefusedAndNothingIsAdded(TestDatabase db)
      throws Exception {
    List<Reading> day = Fixtures.day(4, DAY, VERSION);
    List<Reading> restated = List.of(Fixtures.quarterHour(4, DAY, "9.5", VERSION).build());
    Future<WriteResult> write = raceAgainst(db, day, restated);

    assertThatThrownBy(() -> write.get(SLACK.toSeconds(), TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            MeterStoreException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
              assertThat(e.getMessage())
                  .contains(
                      "Cannot write to table lastgang",
                      "reading #0",
                      "restates version " + VERSION);
            });
    assertThat(rowsOf(db, Fixtures.malo(4))).isEqualTo(1);
  }

  /**
   * Stores {@code theirs} in an open transaction, starts the store's write of {@code ours}, waits
   * until that write waits on the open transaction's rows, then commits them.
   */
  private static Future<WriteResult> raceAgainst(
      TestDatabase db, List<Reading> ours, List<Reading> theirs) throws Exception {
    try (Connection other = db.connect()) {
      other.setAutoCommit(false);
      Fixtures.copy(other, SCHEMA, TABLE, theirs, NOW.minusSeconds(60));
      Future<WriteResult> write = executor.submit(() -> store.write(TABLE, ours, NOW));
      Fixtures.awaitAnInsertWaitingOnALock(db, SLACK);
      other.commit();
      return write;
    }
  }

  private static long rowsOf(TestDatabase db, String malo) throws SQLException {
    return Fixtures.scalar(
        db,
        "SELECT count(*) FROM " + SCHEMA + "." + TABLE.name() + " WHERE malo_id = '" + malo + "'");
  }
}
