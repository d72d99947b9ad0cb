package org.meterstore.hot.internal.write;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.hot.internal.sql.Identifiers;

/**
 * Inserts a batch's new rows in one statement: {@code INSERT … SELECT … FROM unnest(?::text[], …)
 * ON CONFLICT (<primary key>) DO NOTHING RETURNING <primary key>}. The conflict target is explicit
 * because without one PostgreSQL would also skip rows that violate an exclusion constraint,
 * silently. Known redeliveries never reach this statement, so a redelivered day leaves no dead
 * tuple; {@code DO NOTHING} only absorbs a concurrent writer's identical row, and the returned keys
 * show which rows that was.
 */
final class RowInserter {
  private final TableLayout layout;
  private final String sql;
  private final List<ColumnSpec> primaryKey;

  RowInserter(TableLayout layout, String schema) {
    this.layout = layout;
    List<ColumnSpec> columns = layout.columns();
    List<String> names = columns.stream().map(ColumnSpec::name).toList();
    List<String> casts = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      casts.add(TableLayout.cast("b.c" + i, columns.get(i).type()));
    }
    this.primaryKey =
        layout.table().primaryKey().stream()
            .map(name -> columns.get(layout.position(name)))
            .toList();
    String pk = Identifiers.quoteAll(layout.table().primaryKey());
    this.sql =
        "INSERT INTO "
            + Identifiers.qualified(schema, layout.table().name())
            + " ("
            + Identifiers.quoteAll(names)
            + ") SELECT "
            + String.join(", ", casts)
            + " FROM "
            + TableLayout.unnest(columns.size(), "b", false)
            + " ON CONFLICT ("
            + pk
            + ") DO NOTHING RETURNING "
            + pk;
  }

  /**
   * Inserts {@code rows}.
   *
   * @return the primary keys ({@link BatchRow#primaryKey()}) of the rows actually inserted
   */
  Set<String> insert(Connection c, List<BatchRow> rows) throws SQLException {
    List<List<String>> tuples = new ArrayList<>(rows.size());
    for (BatchRow row : rows) {
      tuples.add(Arrays.stream(row.values()).map(TableLayout::text).toList());
    }
    Set<String> inserted = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement(sql)) {
      StoredVersions.bindColumns(c, s, tuples, layout.columns().size(), 1);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          inserted.add(key(rs));
        }
      }
    }
    return inserted;
  }

  /** The returned primary key in {@link BatchRow#primaryKey()} form. */
  private String key(ResultSet rs) throws SQLException {
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < primaryKey.size(); i++) {
      ColumnSpec column = primaryKey.get(i);
      switch (column.type()) {
        case TIMESTAMPTZ:
          key.append(rs.getObject(i + 1, OffsetDateTime.class).toInstant());
          break;
        case DECIMAL_20_0:
          BigDecimal version = rs.getBigDecimal(i + 1);
          key.append(version.toBigIntegerExact());
          break;
        default:
          key.append(rs.getString(i + 1));
      }
      if (i < primaryKey.size() - 1) {
        key.append(BatchPreparer.SEPARATOR);
      }
    }
    return key.toString();
  }
}
