package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

@ExtendWith(PostgresExtension.class)
class RedeliveryIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final int METERS = 5;

  private static HotStore store;

  @BeforeAll
  static void createTable(TestDatabase db) throws SQLException {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(TABLE), NOW);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple");
    }
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @Test
  void redeliveringAWholeDayIsAllDuplicateAndAddsNoRowAndNoDeadTuple(TestDatabase db)
      throws SQLException {
    List<Reading> day = new ArrayList<>();
    for (int meter = 0; meter < METERS; meter++) {
      day.addAll(Fixtures.day(meter, DAY, "20260303000000"));
    }
    WriteResult first = store.write(TABLE, day, NOW);
    assertThat(first.count(WriteOutcome.INSERTED)).isEqualTo(96 * METERS);
    List<String> before = Fixtures.rows(db, SCHEMA, TABLE.name());
    Tuples tuplesBefore = tuples(db);

    WriteResult again = store.write(TABLE, day, NOW.plusSeconds(3600));

    assertThat(again.outcomes()).hasSize(96 * METERS).containsOnly(WriteOutcome.DUPLICATE);
    assertThat(again.stored()).isZero();
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
    Tuples tuplesAfter = tuples(db);
    assertThat(tuplesAfter.live()).isEqualTo(96 * METERS).isEqualTo(tuplesBefore.live());
    assertThat(tuplesAfter.dead()).isZero();
  }

  @Test
  void redeliveringADayInSmallerBatchesIsAllDuplicateToo(TestDatabase db) throws SQLException {
    List<Reading> day = Fixtures.day(40, DAY, "20260303000000");
    store.write(TABLE, day, NOW);
    List<String> before = Fixtures.rows(db, SCHEMA, TABLE.name());
    for (int i = 0; i < 96; i += 24) {
      WriteResult part = store.write(TABLE, day.subList(i, i + 24), NOW.plusSeconds(60));
      assertThat(part.outcomes()).containsOnly(WriteOutcome.DUPLICATE);
    }
    assertThat(Fixtures.rows(db, SCHEMA, TABLE.name())).isEqualTo(before);
    assertThat(tuples(db).dead()).isZero();
  }

  /** Live and dead heap tuples over every partition, counted exactly by pgstattuple. */
  private static Tuples tuples(TestDatabase db) throws SQLException {
    long live = 0;
    long dead = 0;
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT sum((pgstattuple(i.inhrelid)).tuple_count),"
                    + " sum((pgstattuple(i.inhrelid)).dead_tuple_count)"
                    + " FROM pg_inherits i WHERE i.inhparent = '\"meterstore\".\"lastgang\"'::regclass")) {
      rs.next();
      live = rs.getLong(1);
      dead = rs.getLong(2);
    }
    return new Tuples(live, dead);
  }

  private record Tuples(long live, long dead) {}
}
