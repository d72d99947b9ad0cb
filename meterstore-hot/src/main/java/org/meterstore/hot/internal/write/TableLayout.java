package org.meterstore.hot.internal.write;

import static org.meterstore.api.table.SqlIdentifiers.quote;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * Where each column of a table sits in a {@link org.meterstore.api.table.StoredRow} and how its
 * text form is cast back in SQL. Rows travel as {@code text[]} arrays (one per column) and are cast
 * server-side, so one statement carries a whole batch whatever the column types.
 */
final class TableLayout {
  private final TableDefinition table;
  private final List<ColumnSpec> columns;
  private final int[] mergeKey;

  TableLayout(TableDefinition table) {
    this.table = table;
    this.columns = table.columns();
    this.mergeKey = table.mergeKey().stream().mapToInt(this::position).toArray();
  }

  TableDefinition table() {
    return table;
  }

  List<ColumnSpec> columns() {
    return columns;
  }

  /** The merge-key columns' positions, in key order. */
  int[] mergeKey() {
    return mergeKey.clone();
  }

  int position(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("Table " + table.name() + " has no column " + column);
  }

  /** {@code b.<alias>} cast to the column's type ({@code text} needs no cast). */
  static String cast(String expression, ColumnType type) {
    switch (type) {
      case TEXT:
        return expression;
      case TIMESTAMPTZ:
        return expression + "::timestamptz";
      case DATE:
        return expression + "::date";
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return expression + "::numeric";
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }

  /** The text form of a row value, as the server parses it back; null stays null. */
  static String text(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Instant || value instanceof LocalDate || value instanceof String) {
      return value.toString();
    }
    throw new IllegalArgumentException("Unexpected column value type " + value.getClass());
  }

  /** {@code unnest(?::text[], …) AS b(c0, …)} over {@code count} columns. */
  static String unnest(int count, String alias, boolean ordinality) {
    List<String> params = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      params.add("?::text[]");
      names.add("c" + i);
    }
    if (ordinality) {
      names.add("ord");
    }
    return "unnest("
        + String.join(", ", params)
        + ")"
        + (ordinality ? " WITH ORDINALITY" : "")
        + " AS "
        + alias
        + "("
        + String.join(", ", names)
        + ")";
  }

  /** {@code t."col" = <cast b.cK>} for every merge-key column (optionally without {@code from}). */
  String mergeKeyJoin(String stored, String batch, boolean withFrom) {
    List<String> terms = new ArrayList<>();
    int k = 0;
    for (int position : mergeKey) {
      ColumnSpec column = columns.get(position);
      String alias = batch + ".c" + k++;
      if (!withFrom && column.name().equals("from")) {
        continue;
      }
      terms.add(stored + "." + quote(column.name()) + " = " + cast(alias, column.type()));
    }
    return String.join(" AND ", terms);
  }

  /** The batch alias's {@code from} column, cast: {@code b.cK::timestamptz}. */
  String batchFrom(String batch) {
    for (int k = 0; k < mergeKey.length; k++) {
      if (columns.get(mergeKey[k]).name().equals("from")) {
        return batch + ".c" + k + "::timestamptz";
      }
    }
    throw new IllegalStateException("the merge key of " + table.name() + " has no from");
  }
}
