package org.meterstore.hot.internal.write;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * Reads every stored version of the batch's merge keys in one statement: the distinct keys go as
 * {@code text[]} arrays, are unnested and joined to the parent on the primary key's leading
 * columns. The join is a {@code LATERAL} subquery so that it can only run as a nested loop: each
 * key is one primary-key index probe in the one partition that can hold it (run-time pruning on
 * {@code from}); a plain join let the planner hash-join against a scan of every partition.
 */
final class StoredVersions {
  private static final List<String> STORED_COLUMNS =
      List.of("version", "version_scope", "value", "unit", "quality", "to", "recorded_at");

  private final TableLayout layout;
  private final String sql;

  StoredVersions(TableLayout layout, String schema) {
    this.layout = layout;
    int keyColumns = layout.mergeKey().length;
    this.sql =
        "SELECT b.ord, "
            + String.join(
                ", ", STORED_COLUMNS.stream().map(col -> "t." + SqlIdentifiers.quote(col)).toList())
            + " FROM "
            + TableLayout.unnest(keyColumns, "b", true)
            + " CROSS JOIN LATERAL (SELECT * FROM "
            + SqlIdentifiers.qualified(schema, layout.table().name())
            + " t WHERE "
            + layout.mergeKeyJoin("t", "b", true)
            + ") t";
  }

  /** The lookup statement; its parameters are bound by {@link #bind}. */
  String sql() {
    return sql;
  }

  /**
   * Binds the distinct merge keys of {@code rows} from parameter {@code first}.
   *
   * @return the merge keys in the order they were bound, for {@link #read}
   */
  List<String> bind(Connection c, PreparedStatement s, List<BatchRow> rows, int first)
      throws SQLException {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (BatchRow row : rows) {
      keys.putIfAbsent(row.mergeKey(), row.mergeKeyValues());
    }
    bindColumns(c, s, new ArrayList<>(keys.values()), layout.mergeKey().length, first);
    return new ArrayList<>(keys.keySet());
  }

  /** The lookup's result: the stored versions by merge key, the keys {@code ordered} as bound. */
  static Map<String, List<StoredVersion>> read(ResultSet rs, List<String> ordered)
      throws SQLException {
    Map<String, List<StoredVersion>> stored = new HashMap<>();
    while (rs.next()) {
      String key = ordered.get(rs.getInt(1) - 1);
      stored.computeIfAbsent(key, k -> new ArrayList<>()).add(read(rs));
    }
    return stored;
  }

  /** Binds {@code columnCount} text arrays, column-wise, from row-wise {@code tuples}. */
  static int bindColumns(
      Connection c, PreparedStatement s, List<List<String>> tuples, int columnCount, int first)
      throws SQLException {
    for (int col = 0; col < columnCount; col++) {
      String[] column = new String[tuples.size()];
      for (int i = 0; i < column.length; i++) {
        column[i] = tuples.get(i).get(col);
      }
      Array array = c.createArrayOf("text", column);
      s.setArray(first + col, array);
    }
    return first + columnCount;
  }

  private static StoredVersion read(ResultSet rs) throws SQLException {
    return new StoredVersion(
        rs.getBigDecimal(2).toBigIntegerExact(),
        rs.getString(3),
        rs.getBigDecimal(4),
        rs.getString(5),
        rs.getString(6),
        instant(rs.getObject(7, OffsetDateTime.class)),
        instant(rs.getObject(8, OffsetDateTime.class)));
  }

  private static Instant instant(OffsetDateTime value) {
    return value == null ? null : value.toInstant();
  }
}
