package org.meterstore.hot.internal.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.meterstore.api.table.TimeModel;

/**
 * The first round trip of a write: the crossing-span lock with the planner settings, the table's
 * longest crossing span and the stored versions of the batch's merge keys, sent as three statements
 * in one message. Under {@code READ COMMITTED} each statement takes its own snapshot, so the two
 * reads see everything committed before the lock was granted, exactly as if they had been sent one
 * after the other. {@code POINT} tables take no lock and have no crossing spans: only the planner
 * settings and the lookup.
 */
final class LockedRead {
  /**
   * What the first round trip found.
   *
   * @param stored the stored versions by merge key
   * @param longestCrossingSpan the table's longest recorded crossing span, if any
   */
  record Found(Map<String, List<StoredVersion>> stored, Optional<Duration> longestCrossingSpan) {}

  private final StoredVersions versions;
  private final CrossingSpans crossing;
  private final String table;
  private final boolean interval;

  LockedRead(TableLayout layout, StoredVersions versions, CrossingSpans crossing) {
    this.versions = versions;
    this.crossing = crossing;
    this.table = layout.table().name();
    this.interval = layout.table().timeModel() == TimeModel.INTERVAL;
  }

  /** Locks (interval tables) and reads what the write of {@code rows} decides by. */
  Found run(Connection c, List<BatchRow> rows) throws SQLException {
    String sql;
    if (interval) {
      boolean exclusive = rows.stream().anyMatch(BatchRow::crossesPartition);
      sql =
          CrossingSpans.lockStatement(exclusive)
              + ";\n"
              + crossing.longestSpanStatement()
              + ";\n"
              + versions.sql();
    } else {
      sql = "SELECT " + CrossingSpans.PLAN_SETTINGS + ";\n" + versions.sql();
    }
    try (PreparedStatement s = c.prepareStatement(sql)) {
      int next = 1;
      if (interval) {
        next = crossing.bindLock(s, next);
        s.setString(next++, table);
      }
      List<String> ordered = versions.bind(c, s, rows, next);
      s.execute();
      Optional<Duration> longest = Optional.empty();
      if (interval) {
        nextResult(s);
        try (ResultSet rs = s.getResultSet()) {
          if (rs.next()) {
            long seconds = rs.getLong(1);
            longest = rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
          }
        }
      }
      nextResult(s);
      try (ResultSet rs = s.getResultSet()) {
        return new Found(StoredVersions.read(rs, ordered), longest);
      }
    }
  }

  private static void nextResult(PreparedStatement s) throws SQLException {
    if (!s.getMoreResults()) {
      throw new SQLException("expected one more result set in the write's first round trip");
    }
  }
}
