package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.DAY;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.OPERATOR;
import static org.meterstore.hot.Fixtures.OTHER_OPERATOR;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The race {@code one_operator_per_reading} must win without its GiST constraint: two stores (two
 * connections, two threads released together by a barrier) write the first version of the same
 * reading under two network operators. Every round exactly one batch is stored whole, the other is
 * refused with {@code INTEGRITY_VIOLATION} naming the rule, the stored rows carry one operator, and
 * no round ends in a deadlock or any other error. Each round writes readings no round wrote before.
 */
@ExtendWith(PostgresExtension.class)
class OperatorRaceIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang").withResolution(Resolution.PT15M);
  private static final TableDefinition REGISTER = TableDefinition.point("zaehlerstand");
  private static final String V1 = "20260303000000";
  private static final String V2 = "20260304000000";
  private static final String MELO = "DE0001234567890123456789012345678";
  private static final int ROUNDS = 200;
  private static final long SLACK_SECONDS = 30;

  private static HotStore first;
  private static HotStore second;
  private static ExecutorService threads;
  private final TestDatabase db;

  OperatorRaceIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    first = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    second = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    first.createTables(List.of(TABLE, REGISTER), NOW);
    first.partitions().ensure(TABLE, DAY, DAY.plus(Duration.ofDays(1)));
    first.partitions().ensure(REGISTER, DAY, DAY.plus(Duration.ofDays(1)));
    threads = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void close() {
    threads.shutdownNow();
    first.close();
    second.close();
  }

  @Test
  void oneOfTwoOperatorsWinsTheFirstVersionOfOneReading() throws Exception {
    race(
        TABLE,
        round -> List.of(qh(meter(0, round), DAY, round % 2 == 0 ? V1 : V2, OPERATOR)),
        round -> List.of(qh(meter(0, round), DAY, V2, OTHER_OPERATOR)));
  }

  @Test
  void oneOfTwoOperatorsWinsTheFirstVersionOfOneRegisterReading() throws Exception {
    race(
        REGISTER,
        round -> List.of(register(meter(1, round), V1, OPERATOR)),
        round -> List.of(register(meter(1, round), V2, OTHER_OPERATOR)));
  }

  @Test
  void oneOfTwoOperatorsWinsAMeterDay() throws Exception {
    race(
        TABLE,
        round -> day(meter(2, round), V1, OPERATOR),
        round -> day(meter(2, round), V2, OTHER_OPERATOR));
  }

  @Test
  void oneOfTwoBatchesListingTheSameMetersInOppositeOrdersWins() throws Exception {
    // Even rounds deliver one version under both operators (their inserts meet on the primary
    // key, in opposite orders), odd rounds two versions (nothing but the rule stops the second).
    int meters = 8;
    race(
        TABLE,
        round ->
            quarterHours(IntStream.range(0, meters).map(i -> meter(3, round) + i), V1, OPERATOR),
        round ->
            quarterHours(
                IntStream.range(0, meters).map(i -> meter(3, round) + meters - 1 - i),
                round % 2 == 0 ? V1 : V2,
                OTHER_OPERATOR));
  }

  @Test
  void aWideBatchAndANarrowOneOfAnotherOperatorSerialise() throws Exception {
    int wide = 200; // more market locations than a batch locks one by one (128)
    race(
        TABLE,
        round ->
            IntStream.range(0, wide)
                .mapToObj(i -> qh(meter(4, round) + i, DAY, V1, OPERATOR))
                .toList(),
        round -> day(meter(4, round) + wide / 2, V2, OTHER_OPERATOR));
  }

  /**
   * Runs {@link #ROUNDS} rounds of {@code ours} against {@code theirs} on {@code table}, each round
   * started together, and asserts every round's result; failing rounds are collected and reported
   * together, so the count shows how often the race was lost.
   */
  private void race(
      TableDefinition table, IntFunction<List<Reading>> ours, IntFunction<List<Reading>> theirs)
      throws Exception {
    List<String> failures = new ArrayList<>();
    for (int round = 0; round < ROUNDS; round++) {
      List<Reading> a = ours.apply(round);
      List<Reading> b = theirs.apply(round);
      CyclicBarrier start = new CyclicBarrier(2);
      Future<Throwable> fa = threads.submit(() -> attempt(start, first, table, a));
      Future<Throwable> fb = threads.submit(() -> attempt(start, second, table, b));
      Throwable ea = fa.get(SLACK_SECONDS, TimeUnit.SECONDS);
      Throwable eb = fb.get(SLACK_SECONDS, TimeUnit.SECONDS);
      String failure = judge(table, a, b, ea, eb);
      if (failure != null) {
        failures.add("round " + round + ": " + failure);
      }
    }
    assertThat(failures).as(failures.size() + " of " + ROUNDS + " rounds lost").isEmpty();
  }

  private static Throwable attempt(
      CyclicBarrier start, HotStore store, TableDefinition table, List<Reading> batch)
      throws Exception {
    start.await(SLACK_SECONDS, TimeUnit.SECONDS);
    try {
      store.write(table, batch, NOW);
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  /** What is wrong with one round, or null. */
  private String judge(
      TableDefinition table, List<Reading> a, List<Reading> b, Throwable ea, Throwable eb)
      throws SQLException {
    if ((ea == null) == (eb == null)) {
      return ea == null ? "both batches were stored" : "both refused: " + ea + " / " + eb;
    }
    Throwable refusal = ea == null ? eb : ea;
    List<Reading> winner = ea == null ? a : b;
    if (!(refusal instanceof MeterStoreException e)
        || e.kind() != ErrorKind.INTEGRITY_VIOLATION
        || !e.getMessage().contains("(constraint one_operator_per_reading)")) {
      return "the loser was refused with " + refusal;
    }
    List<String> malos = new ArrayList<>();
    a.forEach(r -> malos.add(r.maloId().value()));
    b.forEach(r -> malos.add(r.maloId().value()));
    long[] stored = rowsAndOperators(table, malos);
    if (stored[0] != winner.size() || stored[1] != 1) {
      return "stored " + stored[0] + " rows of " + stored[1] + " operators, not " + winner.size();
    }
    return null;
  }

  private long[] rowsAndOperators(TableDefinition table, List<String> malos) throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT count(*), count(DISTINCT split_part(version_scope, ':', 1)) FROM "
                    + SCHEMA
                    + ".\""
                    + table.name()
                    + "\" WHERE malo_id = ANY(?)")) {
      s.setArray(1, c.createArrayOf("text", malos.toArray()));
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return new long[] {rs.getLong(1), rs.getLong(2)};
      }
    }
  }

  /** The first of this test's meters in {@code round}: 1,000 meters per test and round. */
  private static int meter(int test, int round) {
    return 1_000_000 * (test + 1) + 1_000 * round;
  }

  private static Reading qh(int meter, Instant from, String version, String operator) {
    return quarterHour(meter, from, "1", version).operator(operator).build();
  }

  private static Reading register(int meter, String version, String operator) {
    return quarterHour(meter, DAY, "1", version)
        .resolution(null)
        .interval(DAY, (Instant) null)
        .melo(MELO)
        .operator(operator)
        .build();
  }

  /** The 96 quarter-hours of {@code meter} on {@link Fixtures#DAY}. */
  private static List<Reading> day(int meter, String version, String operator) {
    return IntStream.range(0, 96)
        .mapToObj(i -> qh(meter, DAY.plus(Duration.ofMinutes(15L * i)), version, operator))
        .toList();
  }

  /** Two quarter-hours of each meter, in the order given. */
  private static List<Reading> quarterHours(IntStream meters, String version, String operator) {
    List<Reading> batch = new ArrayList<>();
    meters.forEach(
        m -> {
          batch.add(qh(m, DAY, version, operator));
          batch.add(qh(m, DAY.plus(Duration.ofMinutes(15)), version, operator));
        });
    return batch;
  }
}
