package org.meterstore.hot.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.hot.Fixtures.NOW;
import static org.meterstore.hot.Fixtures.quarterHour;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;
import org.meterstore.hot.HotStore;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The overlap matrix of issue #18: every overlap {@code spans_do_not_overlap} refuses on a table
 * without a declared resolution, written to a fixed-resolution table too, with the error each
 * gives. On a {@code PT15M} table every such overlap involves a reading off the grid, so it is
 * refused earlier, by {@value TableDefinition#GRID_RULE} ({@code INVALID_INPUT}), often in the
 * batch that would have stored the first span. A {@code P1D} table keeps the constraint (a gas day
 * and a calendar day of one reading overlap with different starts) and refuses exactly as today.
 * Every refused batch leaves the table as it was.
 */
@ExtendWith(PostgresExtension.class)
class FixedResolutionOverlapIT {
  private static final String SCHEMA = "meterstore";
  private static final TableDefinition FREE = TableDefinition.interval("lastgang");
  private static final TableDefinition FIXED =
      TableDefinition.interval("lastgang_fixed").withResolution(Resolution.PT15M);
  private static final TableDefinition FREE_DAYS = TableDefinition.interval("tageswerte");
  private static final TableDefinition FIXED_DAYS =
      TableDefinition.interval("tageswerte_fixed").withResolution(Resolution.P1D);
  private static final String V1 = "20260303000000";
  private static final String V2 = "20260304000000";
  private static final Instant T = Instant.parse("2026-03-02T10:00:00Z");
  private static final Instant NEXT_DAY_10H = Instant.parse("2026-03-03T10:00:00Z");
  private static final String SPANS = "constraint spans_do_not_overlap";
  private static final String GRID = TableDefinition.GRID_RULE;
  private static final String RESTATED = "value restated under an existing version";
  private static final String ACCEPTED = "accepted";

  private static HotStore store;
  private final TestDatabase db;

  FixedResolutionOverlapIT(TestDatabase db) {
    this.db = db;
  }

  @BeforeAll
  static void create(TestDatabase db) {
    store = Fixtures.store(db, SCHEMA, Duration.ofSeconds(3));
    store.createTables(List.of(FREE, FIXED, FREE_DAYS, FIXED_DAYS), NOW);
  }

  @AfterAll
  static void close() {
    store.close();
  }

  /**
   * What a case gave: the batch that was refused (-1: none), its error kind and the rule its
   * message names.
   */
  record Result(int batch, ErrorKind kind, String rule) {
    static Result refused(int batch, ErrorKind kind, String rule) {
      return new Result(batch, kind, rule);
    }

    static Result accepted() {
      return new Result(-1, null, ACCEPTED);
    }
  }

  static Stream<Arguments> matrix() {
    Result spans1 = Result.refused(1, ErrorKind.INTEGRITY_VIOLATION, SPANS);
    Result spans0 = Result.refused(0, ErrorKind.INTEGRITY_VIOLATION, SPANS);
    Result grid1 = Result.refused(1, ErrorKind.INVALID_INPUT, GRID);
    Result grid0 = Result.refused(0, ErrorKind.INVALID_INPUT, GRID);
    return Stream.of(
        // Quarter-hour tables: no constraint on the fixed one.
        row(
            "a stored quarter-hour and a span starting inside it",
            false,
            m -> List.of(List.of(qh(m, T, V1)), List.of(span(m, T.plusSeconds(300), 15, V1))),
            spans1,
            grid1),
        row(
            "a stored quarter-hour and a longer span with the same start",
            false,
            m -> List.of(List.of(qh(m, T, V1)), List.of(span(m, T, 30, V1))),
            spans1,
            grid1),
        row(
            "a stored hour and a quarter-hour inside it",
            false,
            m -> List.of(List.of(hour(m, T)), List.of(qh(m, T.plusSeconds(1800), V1))),
            spans1,
            grid0),
        row(
            "one batch: an hour and a quarter-hour inside it",
            false,
            m -> List.of(List.of(hour(m, T), qh(m, T.plusSeconds(1800), V1))),
            spans0,
            grid0),
        row(
            "one batch: one start, two ends",
            false,
            m -> List.of(List.of(qh(m, T, V1), span(m, T, 30, V1))),
            spans0,
            grid0),
        row(
            "a day crossing into the next partition over a stored quarter-hour there",
            false,
            m ->
                List.of(
                    List.of(qh(m, NEXT_DAY_10H, V1)),
                    List.of(
                        day(m, Commodity.STROM, "2026-03-02T23:00:00Z", "2026-03-03T23:00:00Z"))),
            spans1,
            grid1),
        row(
            "a quarter-hour under a stored day from the previous partition",
            false,
            m ->
                List.of(
                    List.of(
                        day(m, Commodity.STROM, "2026-03-02T23:00:00Z", "2026-03-03T23:00:00Z")),
                    List.of(qh(m, NEXT_DAY_10H, V1))),
            spans1,
            grid0),
        // Controls: the outcomes on-grid readings can have; the same on both tables.
        row(
            "the same quarter-hour and version with another value",
            false,
            m ->
                List.of(
                    List.of(qh(m, T, V1)), List.of(qh(m, T, V1).toBuilder().value("2").build())),
            Result.refused(1, ErrorKind.INTEGRITY_VIOLATION, RESTATED),
            Result.refused(1, ErrorKind.INTEGRITY_VIOLATION, RESTATED)),
        row(
            "the same quarter-hour redelivered",
            false,
            m -> List.of(List.of(qh(m, T, V1)), List.of(qh(m, T, V1))),
            Result.accepted(),
            Result.accepted()),
        row(
            "a longer span under another version (no overlap rule applies)",
            false,
            m -> List.of(List.of(qh(m, T, V1)), List.of(span(m, T, 30, V2))),
            Result.accepted(),
            grid1),
        // Daily tables: the fixed one keeps the constraint.
        row(
            "a calendar day over a stored gas day starting in the same partition",
            true,
            m ->
                List.of(
                    List.of(day(m, Commodity.GAS, "2026-03-02T05:00:00Z", "2026-03-03T05:00:00Z")),
                    List.of(
                        day(m, Commodity.STROM, "2026-03-02T23:00:00Z", "2026-03-03T23:00:00Z"))),
            spans1,
            spans1),
        row(
            "a gas day under a stored calendar day from the previous partition",
            true,
            m ->
                List.of(
                    List.of(
                        day(m, Commodity.STROM, "2026-03-02T23:00:00Z", "2026-03-03T23:00:00Z")),
                    List.of(day(m, Commodity.GAS, "2026-03-03T05:00:00Z", "2026-03-04T05:00:00Z"))),
            spans1,
            spans1),
        row(
            "24 hours from the start of the 23-hour day that is stored",
            true,
            m ->
                List.of(
                    List.of(
                        day(m, Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z")),
                    List.of(
                        day(m, Commodity.STROM, "2026-03-28T23:00:00Z", "2026-03-29T22:00:00Z")
                            .toBuilder()
                            .resolution(null)
                            .interval(
                                Instant.parse("2026-03-28T23:00:00Z"),
                                Instant.parse("2026-03-29T23:00:00Z"))
                            .build())),
            spans1,
            grid1));
  }

  private static int meters;

  private static Arguments row(
      String name,
      boolean daily,
      IntFunction<List<List<Reading>>> batches,
      Result onFree,
      Result onFixed) {
    return Arguments.of(name, daily, batches, onFree, onFixed);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("matrix")
  void eachOverlapIsRefusedOnBothTablesAsTheMatrixSays(
      String name,
      boolean daily,
      IntFunction<List<List<Reading>>> batches,
      Result onFree,
      Result onFixed)
      throws SQLException {
    int meter = ++meters;
    assertThat(run(daily ? FREE_DAYS : FREE, batches.apply(meter))).as("free").isEqualTo(onFree);
    assertThat(run(daily ? FIXED_DAYS : FIXED, batches.apply(meter)))
        .as("fixed")
        .isEqualTo(onFixed);
  }

  private Result run(TableDefinition table, List<List<Reading>> batches) throws SQLException {
    for (int i = 0; i < batches.size(); i++) {
      List<String> before = Fixtures.rows(db, SCHEMA, table.name());
      try {
        store.write(table, batches.get(i), NOW);
      } catch (MeterStoreException e) {
        assertThat(Fixtures.rows(db, SCHEMA, table.name()))
            .as("rows after a refusal")
            .isEqualTo(before);
        assertThat(e.getMessage()).startsWith("Cannot write to table " + table.name() + ": ");
        return Result.refused(i, e.kind(), rule(e.getMessage()));
      }
    }
    return Result.accepted();
  }

  private static String rule(String message) {
    for (String rule : List.of(SPANS, GRID, RESTATED, "constraint one_operator_per_reading")) {
      if (message.contains(rule)) {
        return rule;
      }
    }
    return message;
  }

  private static Reading qh(int meter, Instant from, String version) {
    return quarterHour(meter, from, "1", version).build();
  }

  private static Reading span(int meter, Instant from, int minutes, String version) {
    return quarterHour(meter, from, "1", version)
        .resolution(null)
        .interval(from, from.plus(Duration.ofMinutes(minutes)))
        .build();
  }

  private static Reading hour(int meter, Instant from) {
    return quarterHour(meter, from, "4", V1).interval(from, Resolution.PT1H).build();
  }

  private static Reading day(int meter, Commodity commodity, String from, String to) {
    return quarterHour(meter, Instant.parse(from), "24", V1)
        .commodity(commodity)
        .unit(Unit.KWH)
        .resolution(Resolution.P1D)
        .interval(Instant.parse(from), Instant.parse(to))
        .build();
  }
}
