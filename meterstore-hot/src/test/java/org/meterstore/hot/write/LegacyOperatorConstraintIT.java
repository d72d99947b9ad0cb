package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.OPERATOR;
import static org.meterstore.hot.Fixtures.OTHER_OPERATOR;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
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
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.internal.schema.ExclusionConstraint;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Partitions created before the writer took over {@code one_operator_per_reading} (ADR 0016) keep
 * its GiST constraint until they are reclaimed. On such a partition the writer refuses a second
 * operator exactly as on a new one, and when the constraint itself fires (a row written around
 * MeterStore, committed while the writer's insert waits on it) the writer still names the reading
 * and the rule.
 */
@ExtendWith(PostgresExtension.class)
class LegacyOperatorConstraintIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition FREE = TableDefinition.interval("lastgang");
  private static final TableDefinition FIXED =
      TableDefinition.interval("lastgang_fixed").withResolution(Resolution.PT15M);
  private static final String V1 = "20260303000000";
  private static final String V2 = "20260304000000";
  private static final Duration SLACK = Duration.ofSeconds(30);
  private static final String RULE = "(constraint one_operator_per_reading)";

  private static HotStore store;
  private static ExecutorService executor;
  private final TestDatabase db;

  LegacyOperatorConstraintIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) throws SQLException {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(FREE, FIXED), NOW);
    for (TableDefinition table : List.of(FREE, FIXED)) {
      store.partitions().ensure(table, DAY, DAY.plusSeconds(1));
      addTheOldConstraint(db, table, table.name() + "_2026_03_02_0000");
    }
    executor = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void close() {
    executor.shutdownNow();
    store.close();
  }

  @Test
  void theOldPartitionStillCarriesTheConstraint() throws SQLException {
    assertThat(
            Fixtures.scalar(
                db,
                "SELECT count(*) FROM pg_constraint WHERE contype = 'x' AND conname IN"
                    + " ('lastgang_2026_03_02_0000_one_operator',"
                    + " 'lastgang_fixed_2026_03_02_0000_one_operator')"))
        .isEqualTo(2);
  }

  @Test
  void aSecondOperatorAgainstAStoredVersionIsRefusedAsOnANewPartition() throws SQLException {
    for (TableDefinition table : List.of(FREE, FIXED)) {
      store.write(table, List.of(qh(1, V1, OPERATOR)), NOW);
      List<String> before = Fixtures.rows(db, SCHEMA, table.name());
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class,
              () ->
                  store.write(table, List.of(qh(2, V1, OPERATOR), qh(1, V2, OTHER_OPERATOR)), NOW));
      assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
      assertThat(e.getMessage())
          .contains(
              "Cannot write to table " + table.name(),
              "reading #1 Reading[" + Fixtures.malo(1),
              "names operator " + OTHER_OPERATOR + ", but " + OPERATOR,
              RULE);
      assertThat(Fixtures.rows(db, SCHEMA, table.name())).isEqualTo(before);
    }
  }

  @Test
  void whenTheOldConstraintFiresTheDiagnosisNamesTheReading() throws Exception {
    for (TableDefinition table : List.of(FREE, FIXED)) {
      List<String> before = Fixtures.rows(db, SCHEMA, table.name());
      List<Reading> ours = new ArrayList<>();
      for (int meter = 10; meter < 14; meter++) {
        ours.add(qh(meter, V2, OTHER_OPERATOR));
      }
      Future<WriteResult> write;
      try (Connection other = db.connect()) {
        other.setAutoCommit(false);
        Fixtures.copy(other, SCHEMA, table, List.of(qh(12, V1, OPERATOR)), NOW.minusSeconds(60));
        write = executor.submit(() -> store.write(table, ours, NOW));
        Fixtures.awaitAnInsertWaitingOnALock(db, SLACK);
        other.commit();
      }
      ExecutionException failed =
          catchThrowableOfType(
              ExecutionException.class, () -> write.get(SLACK.toSeconds(), TimeUnit.SECONDS));
      assertThat(failed.getCause())
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
                assertThat(e.getMessage())
                    .contains(
                        "Cannot write to table " + table.name(),
                        "reading #2 Reading[" + Fixtures.malo(12),
                        "names operator " + OTHER_OPERATOR + ", but another operator delivers",
                        RULE)
                    .doesNotContain("_one_operator");
              });
      List<String> after = Fixtures.rows(db, SCHEMA, table.name());
      assertThat(after).hasSize(before.size() + 1);
      assertThat(after).containsAll(before);
    }
  }

  /** Adds the constraint as partitions were created before ADR 0016. */
  private static void addTheOldConstraint(TestDatabase db, TableDefinition table, String partition)
      throws SQLException {
    ExclusionConstraint c = ExclusionConstraint.ONE_OPERATOR_PER_READING;
    try (Connection conn = db.connect();
        Statement s = conn.createStatement()) {
      s.execute(
          "ALTER TABLE "
              + SqlIdentifiers.qualified(SCHEMA, partition)
              + " ADD CONSTRAINT "
              + SqlIdentifiers.quote(c.physicalName(partition))
              + " "
              + c.definition(table));
    }
  }

  private static Reading qh(int meter, String version, String operator) {
    Instant from = DAY.plus(Duration.ofHours(10));
    return quarterHour(meter, from, "1", version).operator(operator).build();
  }
}
