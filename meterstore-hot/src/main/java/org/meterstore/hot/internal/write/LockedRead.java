package org.meterstore.hot.internal.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first round trip of a write: the table's write lock with the planner settings and the batch's
 * market-location locks ({@link WriteLocks}), the table's registry row (its longest crossing span
 * and its floor, held {@code FOR SHARE} until the write ends) and the stored versions of the
 * batch's merge keys, sent as four statements in one message. Under {@code READ COMMITTED} each
 * statement takes its own snapshot, so the two reads see everything committed before the locks were
 * granted, exactly as if they had been sent one after the other. {@code POINT} tables take the same
 * locks; they have no crossing spans, but read and share-lock the registry row all the same, for
 * the floor.
 */
final class LockedRead {
  /**
   * What the first round trip found.
   *
   * @param stored the stored versions by merge key
   * @param longestCrossingSpan the table's longest recorded crossing span, if any
   * @param floor the table's recorded floor, if any; it cannot rise before the write ends
   */
  record Found(
      Map<String, List<StoredVersion>> stored,
      Optional<Duration> longestCrossingSpan,
      Optional<Instant> floor) {}

  private final StoredVersions versions;
  private final CrossingSpans crossing;
  private final WriteLocks locks;
  private final String table;

  LockedRead(TableLayout layout, StoredVersions versions, CrossingSpans crossing, String schema) {
    this.versions = versions;
    this.crossing = crossing;
    this.table = layout.table().name();
    this.locks =
        new WriteLocks(
            schema, table, CrossingSpans.planSettings(CrossingSpans.customPlans(layout.table())));
  }

  /** Locks and reads what the write of {@code rows} decides by. */
  Found run(Connection c, List<BatchRow> rows) throws SQLException {
    WriteLocks.Plan plan = locks.plan(rows);
    StoredVersions.Lookup lookup = versions.lookup(rows);
    String sql =
        locks.statements(plan) + ";\n" + crossing.registryRowStatement() + ";\n" + lookup.sql();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      int next = locks.bind(c, s, plan, 1);
      s.setString(next++, table);
      // by ranges, the rows found carry their keys; by probes, they come back by the keys' order
      List<String> ordered = null;
      if (lookup.ranges() != null) {
        StoredVersions.bindRanges(c, s, lookup, next);
      } else {
        ordered = versions.bind(c, s, rows, next);
      }
      s.execute();
      try (ResultSet rs = s.getResultSet()) {
        rs.next();
        locks.requireReadCommitted(rs.getString(1));
      }
      Optional<Duration> longest = Optional.empty();
      Optional<Instant> floor = Optional.empty();
      nextResult(s);
      nextResult(s);
      try (ResultSet rs = s.getResultSet()) {
        if (rs.next()) {
          long seconds = rs.getLong(1);
          longest = rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
          OffsetDateTime recorded = rs.getObject(2, OffsetDateTime.class);
          floor = Optional.ofNullable(recorded).map(OffsetDateTime::toInstant);
        }
      }
      nextResult(s);
      try (ResultSet rs = s.getResultSet()) {
        return new Found(
            lookup.ranges() != null
                ? versions.readRanges(rs, lookup)
                : StoredVersions.read(rs, ordered),
            longest,
            floor);
      }
    }
  }

  private static void nextResult(PreparedStatement s) throws SQLException {
    if (!s.getMoreResults()) {
      throw new SQLException("expected one more result set in the write's first round trip");
    }
  }
}
