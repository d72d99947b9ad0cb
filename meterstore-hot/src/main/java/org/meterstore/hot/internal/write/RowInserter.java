package org.meterstore.hot.internal.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * Inserts a batch's new rows in one plain statement, {@code INSERT … SELECT … FROM
 * unnest(?::text[], …)} (no {@code ON CONFLICT}, no {@code RETURNING}), followed by {@code COMMIT}
 * in the same round trip. Known redeliveries never reach it (the writer filters them against the
 * stored versions it read under its lock), so a redelivered day inserts nothing and leaves no dead
 * tuple. A row that a concurrent writer stored after that read makes the statement fail with a
 * unique violation (23505) and the whole transaction roll back; the writer then retries the batch,
 * whose fresh read reports that row {@code DUPLICATE} (or refuses it if it differs). Only that race
 * ever leaves dead tuples.
 *
 * <p>The plain shape is what makes the {@code COMMIT} in the same round trip safe: the statement
 * stores every row or fails. With {@code ON CONFLICT DO NOTHING} (the previous shape) a skipped row
 * had to be re-checked before the transaction could commit. See docs/benchmarks.md.
 */
final class RowInserter {
  private final TableLayout layout;
  private final String sql;

  RowInserter(TableLayout layout, String schema) {
    this.layout = layout;
    List<ColumnSpec> columns = layout.columns();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    List<String> casts = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      casts.add(TableLayout.cast("b.c" + i, columns.get(i).type()));
    }
    this.sql =
        "INSERT INTO "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " ("
            + SqlIdentifiers.quoteAll(names)
            + ") SELECT "
            + String.join(", ", casts)
            + " FROM "
            + TableLayout.unnest(columns.size(), "b", false)
            + ";\nCOMMIT";
  }

  /**
   * Inserts {@code rows}, all or none, and commits the transaction in the same round trip: the
   * insert is the write's last statement, and a failed insert skips the {@code COMMIT} (the server
   * ignores the rest of a message after an error), leaving the transaction for the caller to roll
   * back. The caller's own commit then finds no open transaction and sends nothing.
   */
  void insertAndCommit(Connection c, List<BatchRow> rows) throws SQLException {
    List<List<String>> tuples = new ArrayList<>(rows.size());
    for (BatchRow row : rows) {
      tuples.add(Arrays.stream(row.values()).map(TableLayout::text).toList());
    }
    try (PreparedStatement s = c.prepareStatement(sql)) {
      StoredVersions.bindColumns(c, s, tuples, layout.columns().size(), 1);
      s.execute();
      int inserted = s.getUpdateCount();
      if (inserted != rows.size()) {
        throw new SQLException("inserted " + inserted + " of " + rows.size() + " rows", "XX000");
      }
    }
  }
}
