package org.meterstore.query.internal.hot;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.SqlIdentifiers;
import org.meterstore.query.internal.exec.Columns;
import org.meterstore.query.internal.exec.ScanSpec;

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

  /**
   * What a group key computes from its column: nothing, Calcite's {@code FLOOR(column TO unit)}
   * (dates stay dates; timestamps in UTC, which is how Calcite evaluates it on the instants it
   * holds) or {@code EXTRACT(unit FROM column)} (a {@code BIGINT}, timestamps in UTC).
   */
  public enum KeyFunction {
    NONE(null, false),
    FLOOR_HOUR("hour", false),
    FLOOR_DAY("day", false),
    FLOOR_MONTH("month", false),
    FLOOR_YEAR("year", false),
    EXTRACT_HOUR("hour", true),
    EXTRACT_DAY("day", true),
    EXTRACT_MONTH("month", true),
    EXTRACT_YEAR("year", true);

    /** The calendar unit, lower case; null for {@link #NONE}. */
    public final String unit;

    /** Whether this is an {@code EXTRACT} (a number) rather than a truncation. */
    public final boolean extract;

    KeyFunction(String unit, boolean extract) {
      this.unit = unit;
      this.extract = extract;
    }
  }

  /**
   * One group key.
   *
   * @param column the storage index of the column
   * @param function what the key computes from it
   */
  public record Key(int column, KeyFunction function) {
    /** The key as SQL-like text, for plans. */
    public String describe(ScanSpec spec) {
      String name = spec.name(column);
      if (function == KeyFunction.NONE) {
        return name;
      }
      String unit = function.unit.toUpperCase(java.util.Locale.ROOT);
      return function.extract
          ? "EXTRACT(" + unit + " FROM " + name + ")"
          : "FLOOR(" + name + " TO " + unit + ")";
    }
  }

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
  public record Call(Kind kind, int arg) {
    /** The call as SQL-like text, for plans. */
    public String describe(ScanSpec spec) {
      String name = kind == Kind.SUM0 ? "$sum0" : kind.sql;
      return name + "(" + (arg < 0 ? "*" : spec.name(arg)) + ")";
    }
  }

  /** The aggregation as SQL-like text, for plans: the group keys, then the calls. */
  public String describe(ScanSpec spec) {
    List<String> keys = new ArrayList<>();
    groups.forEach(g -> keys.add(g.describe(spec)));
    List<String> aggs = new ArrayList<>();
    calls.forEach(c -> aggs.add(c.describe(spec)));
    return "group " + keys + " " + aggs;
  }

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
      out.add(g.function().extract ? Columns.LONG : Columns.reader(spec.type(g.column())));
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
    KeyFunction f = key.function();
    if (f == KeyFunction.NONE) {
      return column;
    }
    boolean date = spec.type(key.column()) == ColumnType.DATE;
    if (f.extract) {
      String value = date ? column : "(" + column + " AT TIME ZONE 'UTC')";
      return "CAST(EXTRACT(" + f.unit + " FROM " + value + ") AS bigint)";
    }
    String unit = "'" + f.unit + "'";
    return date
        ? "CAST(date_trunc(" + unit + ", " + column + ") AS date)"
        : "date_trunc(" + unit + ", " + column + ", 'UTC')";
  }
}
