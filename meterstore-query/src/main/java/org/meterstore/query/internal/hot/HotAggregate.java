package org.meterstore.query.internal.hot;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.meterstore.api.table.ColumnType;
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

  /**
   * {@code SELECT <keys>, <calls> FROM (inner) AS a [GROUP BY <keys>]}: {@code inner} is a
   * statement whose select list names the input columns.
   */
  SqlNode wrap(SqlNode inner, ScanSpec spec) {
    List<SqlNode> select = new ArrayList<>();
    List<SqlNode> keys = new ArrayList<>();
    for (Key g : groups) {
      keys.add(keySql(g, spec));
    }
    select.addAll(keys);
    for (Call c : calls) {
      SqlNode arg =
          c.arg() < 0 ? SqlIdentifier.star(HotSql.POS) : HotSql.column(spec.name(c.arg()));
      SqlNode call = function(c.kind()).createCall(HotSql.POS, arg);
      select.add(
          c.kind() == Kind.SUM0
              ? SqlStdOperatorTable.COALESCE.createCall(
                  HotSql.POS, call, SqlLiteral.createExactNumeric("0", HotSql.POS))
              : call);
    }
    return HotSql.select(
        new SqlNodeList(select, HotSql.POS),
        HotSql.as(inner, "a"),
        null,
        keys.isEmpty() ? null : new SqlNodeList(keys, HotSql.POS));
  }

  private static SqlAggFunction function(Kind kind) {
    return switch (kind) {
      case SUM, SUM0 -> SqlStdOperatorTable.SUM;
      case COUNT -> SqlStdOperatorTable.COUNT;
      case MIN -> SqlStdOperatorTable.MIN;
      case MAX -> SqlStdOperatorTable.MAX;
    };
  }

  /**
   * PostgreSQL's {@code date_trunc(unit, value[, zone])}: Calcite's own {@code FLOOR} renders as
   * {@code DATE_TRUNC} without the zone, which truncates a {@code timestamptz} in the session's
   * zone.
   */
  private static final SqlFunction DATE_TRUNC =
      SqlBasicFunction.create(
          "date_trunc", ReturnTypes.ARG1, OperandTypes.ANY, SqlFunctionCategory.TIMEDATE);

  /** PostgreSQL's {@code value AT TIME ZONE zone}. */
  private static final SqlBinaryOperator AT_TIME_ZONE =
      new SqlBinaryOperator("AT TIME ZONE", SqlKind.OTHER, 60, true, null, null, null);

  private static SqlNode keySql(Key key, ScanSpec spec) {
    SqlNode column = HotSql.column(spec.name(key.column()));
    KeyFunction f = key.function();
    if (f == KeyFunction.NONE) {
      return column;
    }
    boolean date = spec.type(key.column()) == ColumnType.DATE;
    SqlNode utc = SqlLiteral.createCharString("UTC", HotSql.POS);
    if (f.extract) {
      SqlNode value = date ? column : AT_TIME_ZONE.createCall(HotSql.POS, column, utc);
      SqlNode extract =
          SqlStdOperatorTable.EXTRACT.createCall(
              HotSql.POS, new SqlIntervalQualifier(timeUnit(f), null, HotSql.POS), value);
      return cast(extract, SqlTypeName.BIGINT);
    }
    SqlNode unit = SqlLiteral.createCharString(f.unit, HotSql.POS);
    return date
        ? cast(DATE_TRUNC.createCall(HotSql.POS, unit, column), SqlTypeName.DATE)
        : DATE_TRUNC.createCall(HotSql.POS, unit, column, utc);
  }

  private static TimeUnit timeUnit(KeyFunction f) {
    return switch (f) {
      case EXTRACT_HOUR -> TimeUnit.HOUR;
      case EXTRACT_DAY -> TimeUnit.DAY;
      case EXTRACT_MONTH -> TimeUnit.MONTH;
      case EXTRACT_YEAR -> TimeUnit.YEAR;
      default -> throw new IllegalArgumentException("not an EXTRACT: " + f);
    };
  }

  private static SqlNode cast(SqlNode value, SqlTypeName type) {
    return SqlStdOperatorTable.CAST.createCall(
        HotSql.POS,
        value,
        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(type, HotSql.POS), HotSql.POS));
  }
}
