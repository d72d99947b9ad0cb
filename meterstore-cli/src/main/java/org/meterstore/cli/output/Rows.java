package org.meterstore.cli.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A result set: named columns and rows of values in column order. In JSON it is an array of objects
 * keyed by column name; in a table it is aligned columns under a header, even when empty.
 *
 * @param columns the column names, in order
 * @param rows the rows; each has one value per column (null allowed)
 */
public record Rows(List<String> columns, List<List<Object>> rows) {

  /** Copies the columns and checks each row's width. */
  public Rows {
    columns = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "Invalid row: " + row.size() + " values for " + columns.size() + " columns");
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  /** A builder-style start: no rows yet. */
  public static Rows of(String... columns) {
    return new Rows(Arrays.asList(columns), List.of());
  }

  /** These rows plus one more. */
  public Rows with(Object... values) {
    List<List<Object>> more = new ArrayList<>(rows);
    more.add(Arrays.asList(values));
    return new Rows(columns, more);
  }

  /** The value of {@code column} in row {@code row}. */
  public Object get(int row, String column) {
    int i = columns.indexOf(column);
    if (i < 0) {
      throw new IllegalArgumentException("Invalid column: " + column);
    }
    return rows.get(row).get(i);
  }

  /** The number of rows. */
  public int size() {
    return rows.size();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rows r && r.columns.equals(columns) && r.rows.equals(rows);
  }

  @Override
  public int hashCode() {
    return Objects.hash(columns, rows);
  }
}
