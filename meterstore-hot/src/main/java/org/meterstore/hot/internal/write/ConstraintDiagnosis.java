package org.meterstore.hot.internal.write;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.hot.internal.schema.ExclusionConstraint;

/**
 * Finds which reading of a refused batch an exclusion constraint stopped. The failed transaction is
 * gone (so is everything it wrote); this runs in a fresh one against what is committed, which
 * includes the row the constraint compared with (PostgreSQL waits for a concurrent writer to finish
 * before it raises the violation).
 *
 * <p>A span that overlaps only a row with its own primary key is a concurrent redelivery of the
 * same reading, not a violation: the caller then retries the batch, which reports it {@code
 * DUPLICATE}.
 */
final class ConstraintDiagnosis {
  private final TableLayout layout;
  private final String spans;
  private final String operators;

  ConstraintDiagnosis(TableLayout layout, String schema) {
    this.layout = layout;
    int keys = layout.mergeKey().length;
    String table = SqlIdentifiers.qualified(schema, layout.table().name());
    String from = quote("from");
    String tFrom = "t." + from;
    String bFrom = layout.batchFrom("b");
    this.spans =
        "SELECT b.ord FROM "
            + TableLayout.unnest(keys + 4, "b", true)
            + " WHERE EXISTS (SELECT 1 FROM "
            + table
            + " t WHERE "
            + layout.mergeKeyJoin("t", "b", false)
            + " AND t."
            + quote("version")
            + " = b.c"
            + keys
            + "::numeric AND "
            + tFrom
            + " < b.c"
            + (keys + 1)
            + "::timestamptz AND t."
            + quote("to")
            + " > "
            + bFrom
            + " AND "
            + tFrom
            + " <> "
            + bFrom
            + " AND "
            + tFrom
            + " >= b.c"
            + (keys + 2)
            + "::timestamptz AND "
            + tFrom
            + " < b.c"
            + (keys + 3)
            + "::timestamptz) ORDER BY b.ord LIMIT 1";
    this.operators =
        "SELECT b.ord FROM "
            + TableLayout.unnest(keys + 1, "b", true)
            + " WHERE EXISTS (SELECT 1 FROM "
            + table
            + " t WHERE "
            + layout.mergeKeyJoin("t", "b", true)
            + " AND split_part(t."
            + quote("version_scope")
            + ", ':', 1) <> b.c"
            + keys
            + ") ORDER BY b.ord LIMIT 1";
  }

  /** The first of {@code rows} that {@code constraint} refuses against committed rows, if any. */
  Optional<BatchRow> culprit(Connection c, ExclusionConstraint constraint, List<BatchRow> rows)
      throws SQLException {
    List<List<String>> tuples = new ArrayList<>();
    List<BatchRow> probed = new ArrayList<>();
    for (BatchRow row : rows) {
      List<String> values = new ArrayList<>(row.mergeKeyValues());
      if (constraint == ExclusionConstraint.SPANS_DO_NOT_OVERLAP) {
        if (row.to() == null) {
          continue;
        }
        values.add(row.version().toString());
        values.add(row.to().toString());
        values.add(row.lower().toString());
        values.add(row.upper().toString());
      } else {
        values.add(row.operator());
      }
      probed.add(row);
      tuples.add(values);
    }
    if (probed.isEmpty()) {
      return Optional.empty();
    }
    String sql = constraint == ExclusionConstraint.SPANS_DO_NOT_OVERLAP ? spans : operators;
    try (PreparedStatement s = c.prepareStatement(sql)) {
      StoredVersions.bindColumns(c, s, tuples, tuples.get(0).size(), 1);
      try (ResultSet rs = s.executeQuery()) {
        return rs.next() ? Optional.of(probed.get(rs.getInt(1) - 1)) : Optional.empty();
      }
    }
  }
}
