package org.meterstore.query.internal.exec;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.SqlIdentifiers;

/**
 * A grouped aggregation that a hot scan runs inside PostgreSQL, over the rows the scan would
 * otherwise return (resolved, filtered): {@code SELECT g…, agg… FROM (scan) GROUP BY g…}. Only
 * functions whose PostgreSQL result equals Calcite's for the same rows are offered: {@code SUM},
 * {@code SUM0}, {@code COUNT}, {@code MIN} and {@code MAX} over non-text columns. Output columns
 * are the group columns then the calls, in order.
 *
 * @param groups the group keys, in output order
 * @param calls the aggregate calls, in output order
 */
public record HotAggregate(List<Key> groups, List<Call> calls) {

  /** How a group key truncates its column: not at all, or to a calendar unit in UTC. */
  public enum Truncation {
    NONE(null),
    HOUR("hour"),
    DAY("day"),
    MONTH("month"),
    YEAR("year");

    final String unit;

    Truncation(String unit) {
      this.unit = unit;
    }
  }

  /**
   * One group key: a column, possibly truncated as Calcite's {@code FLOOR(column TO unit)} does
   * (dates as dates; timestamps in UTC, which is how Calcite evaluates {@code FLOOR} on the
   * instants it holds).
   *
   * @param column the storage index of the column
   * @param truncation the unit it is truncated to
   */
  public record Key(int column, Truncation truncation) {}

  /** The functions PostgreSQL may compute for MeterStore. */
  public enum Kind {
    SUM("sum"),
    /** {@code SUM} that gives 0 instead of null for no rows. */
    SUM0("sum"),
    /** {@code COUNT(*)} when {@link Call#arg()} is negative, else {@code COUNT(column)}. */
    COUNT("count"),
    MIN("min"),
    MAX("max");

    final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  /**
   * One aggregate call.
   *
   * @param kind the function
   * @param arg the storage index of its argument; negative for {@code COUNT(*)}
   */
  public record Call(Kind kind, int arg) {}

  /** Copies the lists. */
  public HotAggregate {
    groups = List.copyOf(groups);
    calls = List.copyOf(calls);
  }

  /** The storage columns the aggregation reads: the groups and every argument. */
  BitSet inputs() {
    BitSet bits = new BitSet();
    for (Key g : groups) {
      bits.set(g.column());
    }
    for (Call c : calls) {
      if (c.arg() >= 0) {
        bits.set(c.arg());
      }
    }
    return bits;
  }

  /**
   * The converters of the output columns: group columns and {@code MIN}/{@code MAX} keep their
   * column's type, {@code SUM} is a decimal, {@code COUNT} a {@code long}.
   */
  List<Columns.Reader> readers(ScanSpec spec) {
    List<Columns.Reader> out = new ArrayList<>();
    for (Key g : groups) {
      out.add(Columns.reader(spec.type(g.column())));
    }
    for (Call c : calls) {
      out.add(
          switch (c.kind()) {
            case COUNT -> Columns.LONG;
            case SUM, SUM0 -> Columns.reader(ColumnType.DECIMAL_20_0);
            case MIN, MAX -> Columns.reader(spec.type(c.arg()));
          });
    }
    return out;
  }

  /** Wraps {@code inner} (a statement whose select list names the input columns). */
  String wrap(String inner, ScanSpec spec) {
    List<String> select = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (Key g : groups) {
      keys.add(keySql(g, spec));
    }
    select.addAll(keys);
    for (Call c : calls) {
      String call =
          c.kind().sql + "(" + (c.arg() < 0 ? "*" : SqlIdentifiers.quote(spec.name(c.arg()))) + ")";
      select.add(c.kind() == Kind.SUM0 ? "coalesce(" + call + ", 0)" : call);
    }
    return "SELECT "
        + String.join(", ", select)
        + " FROM ("
        + inner
        + ") AS a"
        + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", keys));
  }

  private static String keySql(Key key, ScanSpec spec) {
    String column = SqlIdentifiers.quote(spec.name(key.column()));
    if (key.truncation() == Truncation.NONE) {
      return column;
    }
    String unit = "'" + key.truncation().unit + "'";
    return spec.type(key.column()) == ColumnType.DATE
        ? "CAST(date_trunc(" + unit + ", " + column + ") AS date)"
        : "date_trunc(" + unit + ", " + column + ", 'UTC')";
  }
}
