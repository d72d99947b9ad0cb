package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import org.meterstore.api.MeterStoreException;
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
 * A statement planned before an archival run and executed after it returns the same rows: it read W
 * once, pinned its cold snapshot, and reads the hot partitions it enumerated by name, which its
 * reader pin keeps the real archiver from reclaiming until the pin is released.
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
  void aStatementPlannedBeforeArchivalReturnsTheSameRowsAfterIt(TestDatabase db) throws Exception {
    try (QueryFixture d = deployment(db, "lastgang")) {
      TableDefinition def = d.tables.get(0);
      try (Connection c = d.catalog.connection();
          PreparedStatement prepared = c.prepareStatement(SQL);
          PreparedStatement unexecuted = c.prepareStatement(SQL)) {
        bind(prepared, DAY1, DAY4);
        List<String> before = rows(prepared);
        assertThat(before).hasSize(3 * 72);
        bind(unexecuted, DAY1, DAY4);
        List<ReaderPin> pins = d.hot.pins().active("lastgang", d.clock.instant());
        assertThat(pins).isNotEmpty();
        assertThat(pins.get(0).from()).isEqualTo(DAY2);

        d.archive(def, DAY2, DAY3, true);
        assertThat(d.coldTable(def).watermark()).isEqualTo(DAY3);
        assertThat(state(d, def, DAY2)).as("kept by the pin").contains(PartitionState.DETACHED);

        assertThat(rows(prepared)).isEqualTo(before);
        assertThat(rows(unexecuted)).isEqualTo(before);
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
  void aStatementThatOutlivesItsPinFailsNamingTheWindow(TestDatabase db) throws Exception {
    try (QueryFixture d = deployment(db, "outlived")) {
      try (Connection c = d.catalog.connection();
          PreparedStatement prepared =
              c.prepareStatement("SELECT count(*) FROM outlived WHERE \"from\" >= ?")) {
        prepared.setTimestamp(1, Timestamp.from(DAY2));
        assertThat(rows(prepared)).containsExactly("144|");
        d.clock.advance(Duration.ofHours(2));
        assertThatThrownBy(() -> rows(prepared))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining(
                "Cannot read hot window [2026-01-02T00:00:00Z, 2026-01-04T00:00:00Z)")
            .hasMessageContaining("reader pin expired")
            .cause()
            .isInstanceOfSatisfying(
                MeterStoreException.class, e -> assertThat(e.isRetryable()).isTrue());
      }
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
