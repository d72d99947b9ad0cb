package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
import static org.meterstore.query.Fixtures.DAY2;
import static org.meterstore.query.Fixtures.DAY3;
import static org.meterstore.query.Fixtures.DAY4;
import static org.meterstore.query.Fixtures.hourly;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Rows;

/**
 * Each execution reads W once, pins its cold snapshot and the hot partitions it enumerated (read by
 * name, kept from the real archiver's reclamation by the reader pin) and releases them when its
 * result set closes: a result set opened before an archival run returns the same rows after it, and
 * a prepared statement executed again answers the current state.
 */
@ExtendWith(PostgresExtension.class)
class ReaderSafetyIT {
  private static final String SQL =
      "SELECT " + Rows.COLUMNS + " FROM lastgang WHERE \"from\" >= ? AND \"from\" < ?";

  /** The window ending at DAY3 is due at the clock's start, 2026-02-01T00:00Z. */
  private static final Duration LAG = Duration.ofDays(29);

  /** Shorter than the pin ttl (1 h): the reclaim run after archival meets the pin alive. */
  private static final Duration GRACE = Duration.ofMinutes(30);

  @TempDir Path warehouse;

  private QueryFixture deployment(TestDatabase db, String name) {
    TableDefinition def = TwoTiers.table(name, LAG, GRACE);
    QueryFixture d =
        new QueryFixture(
            db, warehouse.resolve(name), Instant.parse("2026-02-01T00:00:00Z"), List.of(def));
    d.hot.write(def, hourly(3, DAY1, DAY4, "20260105000000"), d.clock.instant());
    d.archive(def, DAY1, DAY2, true);
    return d;
  }

  @Test
  void anExecutionPinsItsPartitionsUntilItsResultSetClosesAndTheNextReadsTheNewWatermark(
      TestDatabase db) throws Exception {
    try (QueryFixture d = deployment(db, "lastgang")) {
      TableDefinition def = d.tables.get(0);
      try (Connection c = d.catalog.connection();
          PreparedStatement prepared = c.prepareStatement(SQL)) {
        bind(prepared, DAY1, DAY4);
        List<String> before = rows(prepared);
        assertThat(before).hasSize(3 * 72);
        assertThat(d.hot.pins().active("lastgang", d.clock.instant()))
            .as("a closed result set pins nothing")
            .isEmpty();
        try (ResultSet open = prepared.executeQuery()) {
          List<ReaderPin> pins = d.hot.pins().active("lastgang", d.clock.instant());
          assertThat(pins).isNotEmpty();
          assertThat(pins.get(0).from()).isEqualTo(DAY2);
          assertThat(Rows.read(open)).isEqualTo(before);
        }
        assertThat(d.hot.pins().active("lastgang", d.clock.instant())).isEmpty();
        d.archive(def, DAY2, DAY3, false);
        assertThat(d.coldTable(def).watermark()).isEqualTo(DAY3);
        assertThat(state(d, def, DAY2)).contains(PartitionState.DETACHED);
        assertThat(rows(prepared)).as("the next execution reads W = DAY3").isEqualTo(before);
        try (Connection fresh = d.catalog.connection();
            PreparedStatement after = fresh.prepareStatement(SQL)) {
          bind(after, DAY1, DAY4);
          assertThat(rows(after)).isEqualTo(before);
        }
      }
      assertThat(d.hot.pins().active("lastgang", d.clock.instant())).isEmpty();
      TableOutcome reclaim = d.runArchiver(def, DAY3.plus(LAG).plus(GRACE));
      assertThat(reclaim.counts().partitionsDropped()).isEqualTo(1);
      assertThat(state(d, def, DAY2)).isEmpty();
    }
  }

  private static Optional<PartitionState> state(QueryFixture d, TableDefinition def, Instant from) {
    return d.hot.partitions().list(def).stream()
        .filter(p -> p.lowerBound().equals(from))
        .map(PartitionInfo::state)
        .findFirst();
  }

  @Test
  void aPreparedStatementReadsTheCurrentStateAtEveryExecutionAndPinsNothingAfterward(
      TestDatabase db) throws Exception {
    try (QueryFixture d = deployment(db, "replanned")) {
      TableDefinition def = d.tables.get(0);
      List<Reading> day4 = hourly(3, DAY4, DAY4.plus(Duration.ofDays(1)), "20260105000000");
      String threeDays = tally(hourly(3, DAY1, DAY4, "20260105000000"));
      String fourDays =
          tally(
              java.util.stream.Stream.concat(
                      hourly(3, DAY1, DAY4, "20260105000000").stream(), day4.stream())
                  .toList());
      try (Connection c = d.catalog.connection();
          PreparedStatement prepared =
              c.prepareStatement("SELECT count(*), sum(\"value\") FROM replanned")) {
        assertThat(countAndSum(prepared)).isEqualTo(threeDays);
        assertThat(d.hot.pins().active("replanned", d.clock.instant())).isEmpty();

        d.archive(def, DAY2, DAY3, false); // W moves to DAY3, the DAY2 partition stays detached
        assertThat(countAndSum(prepared)).isEqualTo(threeDays);
        assertThat(d.hot.pins().active("replanned", d.clock.instant())).isEmpty();

        // nothing pins the detached partition: the reclaim run drops it
        TableOutcome reclaim = d.runArchiver(def, DAY3.plus(LAG).plus(GRACE));
        assertThat(reclaim.counts().partitionsDropped()).isEqualTo(1);
        assertThat(state(d, def, DAY2)).isEmpty();
        assertThat(countAndSum(prepared)).isEqualTo(threeDays);

        // a day whose partition was created after the statement was prepared
        d.hot.write(def, day4, DAY4);
        assertThat(countAndSum(prepared)).isEqualTo(fourDays);

        // long after the first execution's pin would have expired, it still answers
        d.clock.advance(Duration.ofHours(2));
        assertThat(countAndSum(prepared)).isEqualTo(fourDays);
        assertThat(d.hot.pins().active("replanned", d.clock.instant())).isEmpty();
      }
    }
  }

  /** {@code count|sum} of {@code readings}, the sum without trailing zeros. */
  private static String tally(List<Reading> readings) {
    java.math.BigDecimal sum =
        readings.stream()
            .map(Reading::value)
            .reduce(java.math.BigDecimal.ZERO, java.math.BigDecimal::add);
    return readings.size() + "|" + sum.stripTrailingZeros().toPlainString();
  }

  /** {@code count|sum} as {@code s} (SELECT count(*), sum(value)) answers it now. */
  private static String countAndSum(PreparedStatement s) throws SQLException {
    try (ResultSet rs = s.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1) + "|" + rs.getBigDecimal(2).stripTrailingZeros().toPlainString();
    }
  }

  private static void bind(PreparedStatement s, Instant a, Instant b) throws SQLException {
    s.setTimestamp(1, Timestamp.from(a));
    s.setTimestamp(2, Timestamp.from(b));
  }

  private static List<String> rows(PreparedStatement s) throws SQLException {
    try (ResultSet rs = s.executeQuery()) {
      return Rows.read(rs);
    }
  }
}
