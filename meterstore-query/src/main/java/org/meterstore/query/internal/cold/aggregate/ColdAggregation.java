package org.meterstore.query.internal.cold.aggregate;

import java.util.List;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * An aggregate computed inside a cold scan: group keys, then calls, over storage-order column
 * indexes. Output rows ({@link org.meterstore.query.internal.cold.ColdExecutor#aggregate}) hold the
 * key values then one value per call, as Calcite internal values: text {@code String}; a plain
 * timestamp or {@code FLOOR} of one {@code Long} epoch milliseconds (UTC); a plain date or {@code
 * FLOOR} of one {@code Integer} epoch days; {@code EXTRACT} a {@code Long}; decimals {@code
 * BigDecimal} at the column's scale; {@code SUM}/{@code SUM0} a {@code BigDecimal} at the column's
 * scale; {@code COUNT} a {@code Long}; {@code MIN}/{@code MAX} the column's internal value. SQL
 * null semantics: a null key is a group of its own, {@code COUNT(col)}, {@code SUM}, {@code MIN}
 * and {@code MAX} skip nulls, {@code SUM} and {@code MIN}/{@code MAX} of no value are null, {@code
 * SUM0} of no value is zero. With no keys the result is exactly one row, even over no input.
 *
 * @param keys the group keys, in output order
 * @param calls the aggregate calls, in output order
 */
public record ColdAggregation(List<Key> keys, List<Call> calls) {

  /** Copies the lists. */
  public ColdAggregation {
    keys = List.copyOf(keys);
    calls = List.copyOf(calls);
  }

  /** How a key is derived from its column. */
  public enum KeyFunction {
    /** The column's value. */
    PLAIN,
    /** {@code FLOOR(col TO unit)}: timestamps in UTC, dates stay dates. */
    FLOOR,
    /** {@code EXTRACT(unit FROM col)}, a {@code Long}. */
    EXTRACT
  }

  /** The calendar units of {@code FLOOR} and {@code EXTRACT}. */
  public enum TimeUnit {
    YEAR,
    MONTH,
    DAY,
    HOUR
  }

  /** The aggregate functions. */
  public enum Function {
    SUM,
    SUM0,
    COUNT,
    MIN,
    MAX
  }

  /**
   * One group key.
   *
   * @param column the storage index of the column
   * @param function how the key is derived
   * @param unit the unit of {@code FLOOR} and {@code EXTRACT}, null for {@code PLAIN}
   */
  public record Key(int column, KeyFunction function, TimeUnit unit) {
    /** Checks that a unit is given exactly when the function needs one. */
    public Key {
      if (function == null || (function == KeyFunction.PLAIN) != (unit == null)) {
        throw new IllegalArgumentException(
            "Invalid key: " + function + " " + unit + " (a unit for FLOOR and EXTRACT only)");
      }
    }

    /** The column itself as a key. */
    public static Key plain(int column) {
      return new Key(column, KeyFunction.PLAIN, null);
    }
  }

  /**
   * One aggregate call.
   *
   * @param function the function
   * @param column the storage index of its argument; negative for {@code COUNT(*)} only
   */
  public record Call(Function function, int column) {
    /** Checks that only {@code COUNT} goes without an argument. */
    public Call {
      if (function == null || (column < 0 && function != Function.COUNT)) {
        throw new IllegalArgumentException(
            "Invalid call: " + function + " of " + column + " (only COUNT(*) has no column)");
      }
    }
  }

  /**
   * Whether this aggregation can run over {@code table}: {@code SUM} and {@code SUM0} of decimals,
   * {@code MIN}/{@code MAX} of anything but text, {@code FLOOR}/{@code EXTRACT} of timestamps and
   * dates.
   */
  public boolean supportedOn(TableDefinition table) {
    List<org.meterstore.api.table.ColumnSpec> columns = table.columns();
    for (Key k : keys) {
      if (k.column() < 0 || k.column() >= columns.size()) {
        return false;
      }
      ColumnType t = columns.get(k.column()).type();
      if (k.function() != KeyFunction.PLAIN
          && t != ColumnType.TIMESTAMPTZ
          && t != ColumnType.DATE) {
        return false;
      }
    }
    for (Call c : calls) {
      if (c.column() >= columns.size()) {
        return false;
      }
      ColumnType t = c.column() < 0 ? null : columns.get(c.column()).type();
      boolean ok =
          switch (c.function()) {
            case SUM, SUM0 -> t == ColumnType.DECIMAL_18_6 || t == ColumnType.DECIMAL_20_0;
            case MIN, MAX -> t != null && t != ColumnType.TEXT;
            case COUNT -> true;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
