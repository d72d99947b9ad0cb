package org.meterstore.hot.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.subject.PrivacyFixtures.LASTGANG;
import static org.meterstore.hot.subject.PrivacyFixtures.local;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.Year;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;
import org.meterstore.api.reading.Reading;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The sweep as a role that may not read readings: it still erases every due mapping, in batches,
 * resumes after an interruption without counting anything twice, and leaves held persons alone.
 */
@ExtendWith(PostgresExtension.class)
class RetentionSweepIT {
  private static final String SCHEMA = "sweep";
  private static final Retention MSBG = Retention.calendarYears(3);
  private static final String REASON = "§ 60 Abs. 6 MsbG";
  private static final String ACTOR = "retention-job";
  private static final int DUE = 23;
  private static final Instant SWEEP_AT = local("2026-06-01T00:00");

  private static TestDatabase database;
  private static String role;
  private static PrivacyFixtures.Metrics ownerMetrics;
  private static PrivacyFixtures.Metrics sweeperMetrics;
  private static HotStore owner;
  private static HotStore sweeper;

  @BeforeAll
  static void open(TestDatabase db) throws SQLException {
    database = db;
    role = "sweeper_" + Long.toHexString(ProcessHandle.current().pid());
    ownerMetrics = new PrivacyFixtures.Metrics();
    sweeperMetrics = new PrivacyFixtures.Metrics();
    owner = PrivacyFixtures.store(db, SCHEMA, null, ownerMetrics);
    owner.createTables(List.of(LASTGANG), NOW);
    execute(
        "CREATE ROLE " + role + " LOGIN PASSWORD 'sweeper'",
        "GRANT USAGE ON SCHEMA sweep TO " + role,
        "GRANT SELECT, UPDATE, DELETE ON sweep.subjects TO " + role,
        "GRANT SELECT ON sweep.subject_holds TO " + role,
        "GRANT INSERT ON sweep.erasure_trail TO " + role);
    PGSimpleDataSource asSweeper = new PGSimpleDataSource();
    asSweeper.setUrl(db.jdbcUrl());
    asSweeper.setUser(role);
    asSweeper.setPassword("sweeper");
    sweeper = PrivacyFixtures.store(asSweeper, db, SCHEMA, null, sweeperMetrics);
  }

  @AfterAll
  static void close() throws SQLException {
    sweeper.close();
    owner.close();
    ownerMetrics.close();
    sweeperMetrics.close();
    execute("DROP OWNED BY " + role, "DROP ROLE " + role);
  }

  @Test
  void sweepsAsARoleWithoutAccessToReadingsResumesWithoutDoubleCountingAndSparesAHeldPerson()
      throws SQLException {
    Subjects registry = owner.subjects();
    long counted = sweeperMetrics.erased(Trigger.RETENTION);
    List<SubjectRef> due = new ArrayList<>();
    for (int i = 0; i < DUE; i++) {
      due.add(
          registry.registerSubject(
              "D-" + i, local("2022-0" + (1 + i % 9) + "-15T12:00"), Commodity.STROM, NOW));
    }
    SubjectRef held = due.get(7);
    registry.holdSubject(held, "billing dispute 2022-17", null, "billing", NOW);
    SubjectRef notDue =
        registry.registerSubject("D-7", local("2023-03-03T12:00"), Commodity.STROM, NOW);
    writeReadingsOf(1, due.get(0));
    writeReadingsOf(2, held);
    long readings = Fixtures.scalar(database, "SELECT count(*) FROM sweep.lastgang");

    assertThat(selectAsSweeper("SELECT count(*) FROM sweep.lastgang"))
        .as("the sweeper may not read readings")
        .isEqualTo("42501");

    Subjects sweep = sweeper.subjects();
    SweepResult interrupted = sweep.sweep(MSBG, REASON, ACTOR, SWEEP_AT, 5, 2);
    assertThat(interrupted.dueThrough()).contains(Year.of(2022));
    assertThat(interrupted.erased()).isEqualTo(10);
    assertThat(interrupted.batches()).isEqualTo(2);
    assertThat(interrupted.complete()).isFalse();

    SweepResult resumed = sweep.sweep(MSBG, REASON, ACTOR, SWEEP_AT.plusSeconds(60), 5);
    assertThat(resumed.erased()).isEqualTo(DUE - 1 - 10);
    assertThat(resumed.complete()).isTrue();
    assertThat(resumed.heldKept()).isEqualTo(1);
    SweepResult again = sweep.sweep(MSBG, REASON, ACTOR, SWEEP_AT.plusSeconds(120), 5);
    assertThat(again.erased()).isZero();
    assertThat(again.batches()).isZero();

    Set<SubjectRef> erased = trailReferences(Trigger.RETENTION);
    assertThat(sweeperMetrics.erased(Trigger.RETENTION) - counted).isEqualTo(DUE - 1);
    assertThat(erased).hasSize(DUE - 1).doesNotContain(held, notDue);
    assertThat(remainingReferences()).containsExactlyInAnyOrder(held, notDue);
    assertThat(Fixtures.scalar(database, "SELECT count(*) FROM sweep.lastgang"))
        .isEqualTo(readings);

    assertThat(registry.releaseHold(held, "dispute settled", "billing", SWEEP_AT)).isTrue();
    SweepResult afterRelease = sweep.sweep(MSBG, REASON, ACTOR, SWEEP_AT.plusSeconds(180), 5);
    assertThat(afterRelease.erased()).isEqualTo(1);
    assertThat(afterRelease.heldKept()).isZero();
    assertThat(remainingReferences()).containsExactly(notDue);
    assertThat(sweeperMetrics.erased(Trigger.RETENTION) - counted).isEqualTo(DUE);
    assertThat(trailReferences(Trigger.RETENTION)).hasSize(DUE);
    assertThat(sweeperMetrics.points("meterstore.subjects_erased"))
        .allSatisfy(p -> assertThat(p.getAttributes().asMap()).hasSize(1));
  }

  @Test
  void aHoldThatHasEndedNoLongerProtects() {
    Subjects registry = owner.subjects();
    SubjectRef ref =
        registry.registerSubject("E-1", local("2021-05-05T05:05"), Commodity.STROM, NOW);
    Instant until = SWEEP_AT.plus(Duration.ofDays(30));
    registry.holdSubject(ref, "Art. 18 restriction", until, "dpo", NOW);

    assertThat(sweeper.subjects().sweep(MSBG, REASON, ACTOR, until.minusSeconds(1), 5).heldKept())
        .isEqualTo(1);
    SweepResult after = sweeper.subjects().sweep(MSBG, REASON, ACTOR, until, 5);

    assertThat(after.erased()).isEqualTo(1);
    assertThat(owner.subjects().erasures(until, until.plusSeconds(1), Trigger.RETENTION, 10))
        .singleElement()
        .satisfies(e -> assertThat(e.references()).containsExactly(ref));
  }

  private static void writeReadingsOf(int meter, SubjectRef ref) {
    Instant day = local(ref.year() + "-03-02T00:00");
    List<Reading> readings = new ArrayList<>();
    for (Reading r : Fixtures.day(meter, day, "20220303000000")) {
      readings.add(r.toBuilder().subject(ref.value()).build());
    }
    owner.write(LASTGANG, readings, NOW);
  }

  private static Set<SubjectRef> trailReferences(Trigger trigger) {
    Set<SubjectRef> refs = new HashSet<>();
    int total = 0;
    for (TrailEntry e :
        owner.subjects().erasures(Instant.EPOCH, SWEEP_AT.plusSeconds(3600), trigger, 100_000)) {
      refs.addAll(e.references());
      total += e.affected();
      assertThat(e.references()).hasSize(e.affected());
    }
    assertThat(total).as("no reference is counted twice").isEqualTo(refs.size());
    return refs;
  }

  private static Set<SubjectRef> remainingReferences() throws SQLException {
    Set<SubjectRef> refs = new HashSet<>();
    try (Connection c = database.connect();
        Statement s = c.createStatement();
        var rs =
            s.executeQuery("SELECT reference FROM sweep.subjects WHERE natural_id LIKE 'D-%'")) {
      while (rs.next()) {
        refs.add(new SubjectRef(rs.getString(1)));
      }
    }
    return refs;
  }

  /** The SQLState a statement fails with as the sweeper, or "ok". */
  private static String selectAsSweeper(String sql) throws SQLException {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl(database.jdbcUrl());
    try (Connection c = ds.getConnection(role, "sweeper");
        Statement s = c.createStatement()) {
      s.executeQuery(sql).close();
      return "ok";
    } catch (SQLException e) {
      if (e.getSQLState() == null) {
        throw e;
      }
      return e.getSQLState();
    }
  }

  private static void execute(String... statements) throws SQLException {
    try (Connection c = database.connect();
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }
}
