package org.meterstore.hot.internal.write;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TimeModel;
import org.meterstore.hot.internal.schema.TableRegistry;

/**
 * The overlap check the per-partition exclusion constraint cannot make: a span that crosses its
 * partition's upper bound can overlap a span stored in a later partition, and a span stored
 * crossing into this partition can overlap a new one here.
 *
 * <p>Forward, for each new crossing span: stored spans of the same reading and version that start
 * in {@code [upper, to)}. Backward, once any crossing span is stored: stored spans that start in
 * {@code [from - longest, lower)} and end after the new {@code from}, where {@code longest} is the
 * longest crossing span recorded in the table registry. Both probe the primary-key index of the
 * partitions in range only. Writes of a table take its write lock shared; writes with a crossing
 * span take it exclusively ({@link WriteLocks}) and raise the recorded {@code longest} before they
 * commit, so no two concurrent writes can each miss the other's span. Tables without crossing spans
 * pay one shared lock and one registry read per batch.
 */
final class CrossingSpans {
  private final TableLayout layout;
  private final String schema;
  private final String sql;

  CrossingSpans(TableLayout layout, String schema) {
    this.layout = layout;
    this.schema = schema;
    int keys = layout.mergeKey().length;
    String from = quote("from");
    String to = quote("to");
    this.sql =
        "SELECT b.ord FROM "
            + TableLayout.unnest(keys + 5, "b", true)
            + " WHERE EXISTS (SELECT 1 FROM "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " t WHERE "
            + layout.mergeKeyJoin("t", "b", false)
            + " AND t."
            + quote("version")
            + " = b.c"
            + keys
            + "::numeric AND t."
            + from
            + " < b.c"
            + (keys + 1)
            + "::timestamptz AND t."
            + to
            + " > "
            + layout.batchFrom("b")
            + " AND (t."
            + from
            + " >= b.c"
            + (keys + 2)
            + "::timestamptz OR (t."
            + from
            + " >= b.c"
            + (keys + 3)
            + "::timestamptz AND t."
            + from
            + " < b.c"
            + (keys + 4)
            + "::timestamptz))) ORDER BY b.ord LIMIT 1";
  }

  /**
   * The statement that reads the table's registry row and holds it {@code FOR SHARE} until the
   * write ends, one parameter: the table name. Two columns: the longest recorded crossing span in
   * whole seconds (rounded up; null while none) and the table's floor (null while none). Must run
   * after the {@link WriteLocks#statements} in a statement of its own, so that it sees what a
   * crossing writer committed before this one got the lock. The share lock makes a concurrent raise
   * of the floor wait for this write, and this write wait for a raise in flight (it then reads the
   * raised floor): archival records the floor before it reclaims a partition, so no write can slip
   * a row below it. A crossing writer updates the row it holds; every other writer of the table
   * waits for its exclusive advisory lock before asking for the share lock, so they cannot
   * deadlock.
   */
  String registryRowStatement() {
    return "SELECT ceil(extract(epoch from "
        + quote("longest_crossing_span")
        + "))::bigint, "
        + quote(TableRegistry.FLOOR)
        + " FROM "
        + SqlIdentifiers.qualified(schema, "tables")
        + " WHERE "
        + quote("name")
        + " = ? FOR SHARE";
  }

  /**
   * The planner settings of a write transaction (local to it). Sequential scans off: a partition
   * written all day is analysed only when autovacuum gets to it; until then the planner may think
   * it empty and scan it whole for every key of every batch, while every statement of a write is a
   * primary-key probe per reading, so the index is always right.
   *
   * <p>Plans: the driver turns a statement it has run five times into a server-side prepared one,
   * and PostgreSQL may then keep a generic plan. The stored-version lookup joins the batch's
   * unnested keys {@code LATERAL}, so no plan prunes partitions by a key when it is made, custom or
   * generic; both prune per key at run time. A table whose grid excludes overlap (a declared
   * resolution such as {@code PT15M}) therefore leaves plans to {@code plan_cache_mode = auto}:
   * forcing custom plans only planned every statement anew for every batch — on 25 partitions the
   * lookup of 96 keys took 1.5–2 ms to plan and 0.74 ms to run as a custom plan, 0.51 ms to run as
   * the generic one, and 96-reading batches wrote 30 % more readings a second without it. Any other
   * interval table keeps custom plans ({@code customPlans}): its writes also run the crossing-spans
   * check, and the hot ingest benchmark (such a table) wrote 5 % fewer readings a second with
   * generic plans.
   */
  static String planSettings(boolean customPlans) {
    return customPlans
        ? "set_config('enable_seqscan', 'off', true),"
            + " set_config('plan_cache_mode', 'force_custom_plan', true)"
        : "set_config('enable_seqscan', 'off', true)";
  }

  /** Whether writes to {@code table} force custom plans ({@link #planSettings}). */
  static boolean customPlans(TableDefinition table) {
    return table.timeModel() == TimeModel.INTERVAL && !table.gridExcludesOverlap();
  }

  /**
   * Checks the new {@code rows} against stored spans in other partitions and records their longest
   * crossing span; the caller holds the table's write lock exclusively when a row crosses ({@link
   * WriteLocks}).
   *
   * @param longest the table's longest recorded crossing span, read under that lock
   * @return the first row that overlaps a stored span, if any
   */
  Optional<BatchRow> check(Connection c, List<BatchRow> rows, Optional<Duration> longest)
      throws SQLException {
    List<BatchRow> probed = new ArrayList<>();
    List<List<String>> tuples = new ArrayList<>();
    Duration crossing = Duration.ZERO;
    for (BatchRow row : rows) {
      if (row.crossesPartition()) {
        Duration span = Duration.between(row.from(), row.to());
        crossing = span.compareTo(crossing) > 0 ? span : crossing;
      }
      boolean reachable =
          longest.isPresent() && row.from().isBefore(row.lower().plus(longest.get()));
      if (row.to() != null && (row.crossesPartition() || reachable)) {
        probed.add(row);
        tuples.add(tuple(row, longest));
      }
    }
    if (!crossing.isZero()) {
      new TableRegistry(c, schema).recordCrossingSpan(layout.table().name(), crossing);
    }
    return probed.isEmpty() ? Optional.empty() : first(c, probed, tuples);
  }

  private Optional<BatchRow> first(Connection c, List<BatchRow> probed, List<List<String>> tuples)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(sql)) {
      StoredVersions.bindColumns(c, s, tuples, layout.mergeKey().length + 5, 1);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(probed.get(rs.getInt(1) - 1)) : Optional.empty();
      }
    }
  }

  /** Merge key, version, to, upper (forward start), backward start, lower (backward end). */
  private static List<String> tuple(BatchRow row, Optional<Duration> longest) {
    List<String> values = new ArrayList<>(row.mergeKeyValues());
    Instant back = longest.map(d -> row.from().minus(d)).orElse(row.lower());
    Instant forward = row.crossesPartition() ? row.upper() : row.to();
    values.add(row.version().toString());
    values.add(row.to().toString());
    values.add(forward.toString());
    values.add(back.toString());
    values.add(row.lower().toString());
    return values;
  }
}
