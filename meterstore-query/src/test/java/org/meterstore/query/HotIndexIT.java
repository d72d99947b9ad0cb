package org.meterstore.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.query.Fixtures.DAY1;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.maintenance.testing.TwoTiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Rows;
import org.meterstore.testing.workload.Workload;

/**
 * One location's range in the hot tier is read through the partitions' indexes, the way PostgreSQL
 * answers it from a primary key: no partition the range touches is scanned whole. Seen in
 * PostgreSQL's own statistics, which a backend reports when it ends (the test's data source does
 * not pool: every connection the engine used has ended once the statistics move).
 */
@ExtendWith(PostgresExtension.class)
class HotIndexIT {
  private static final int METERS = 300;

  @TempDir Path warehouse;

  @Test
  void oneLocationsFiveDaysAreReadThroughTheIndexOfEachPartition(TestDatabase db) throws Exception {
    TableDefinition def = TwoTiers.table("hotidx", Duration.ofDays(29), Duration.ofHours(1));
    Instant end = DAY1.plus(Duration.ofDays(7));
    try (QueryFixture d = new QueryFixture(db, warehouse, end, List.of(def))) {
      d.hot.write(def, hourly(METERS, DAY1, end, "20260105000000"), end);
      Scans before = settled(db, null);

      Instant from = DAY1.plus(Duration.ofDays(1));
      Instant to = from.plus(Duration.ofDays(5));
      try (Connection c = d.catalog.connection();
          PreparedStatement s =
              c.prepareStatement(
                  "SELECT "
                      + Rows.COLUMNS
                      + " FROM hotidx WHERE malo_id = ?"
                      + " AND \"from\" >= ? AND \"from\" < ?")) {
        s.setString(1, Workload.malo(METERS / 2));
        s.setTimestamp(2, Timestamp.from(from));
        s.setTimestamp(3, Timestamp.from(to));
        try (ResultSet rs = s.executeQuery()) {
          assertThat(Rows.read(rs)).hasSize(5 * 24);
        }
      }
      Scans after = settled(db, before);
      assertThat(after.sequential() - before.sequential()).as("partitions scanned whole").isZero();
      assertThat(after.indexed() - before.indexed())
          .as("index scans: one per partition the five days touch")
          .isGreaterThanOrEqualTo(5);
    }
  }

  /** Sequential and index scans of the table's partitions, as PostgreSQL has counted them. */
  private record Scans(long sequential, long indexed) {}

  /**
   * The counts once they stop moving (and, after {@code than}, once they differ from it): a backend
   * reports its counts when it ends, a moment after its connection closed.
   */
  private static Scans settled(TestDatabase db, Scans than) throws Exception {
    Scans last = scans(db);
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    int stable = 0;
    while (System.nanoTime() < deadline) {
      Thread.sleep(200);
      Scans now = scans(db);
      boolean moved = than == null || !now.equals(than);
      stable = now.equals(last) && moved ? stable + 1 : 0;
      last = now;
      if (stable >= 5) {
        return now;
      }
    }
    throw new AssertionError("PostgreSQL's scan counts did not settle: " + last);
  }

  private static Scans scans(TestDatabase db) throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT coalesce(sum(seq_scan), 0), coalesce(sum(idx_scan), 0)"
                    + " FROM pg_stat_user_tables WHERE relname LIKE 'hotidx\\_2%'");
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return new Scans(rs.getLong(1), rs.getLong(2));
    }
  }
}
