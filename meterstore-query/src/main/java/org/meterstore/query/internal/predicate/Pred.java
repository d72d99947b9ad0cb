package org.meterstore.query.internal.predicate;

import java.util.BitSet;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.runtime.SqlFunctions;
import org.meterstore.api.table.ColumnType;

/**
 * A predicate MeterStore can push into a tier, in a form both tiers render: comparisons of a column
 * with a value, null tests, and their boolean combinations. Column indexes are storage-order
 * indexes of the table. Values are Calcite's internal values (epoch milliseconds for timestamps,
 * epoch days for dates) or dynamic parameters resolved when the scan opens.
 */
public sealed interface Pred {

  /** The comparison operators. */
  enum Op {
    EQ("=", "=="),
    NE("<>", "!="),
    LT("<", "<"),
    LE("<=", "<="),
    GT(">", ">"),
    GE(">=", ">=");

    /** The operator in SQL. */
    public final String sql;

    /** The operator as plans show it. */
    public final String shown;

    Op(String sql, String shown) {
      this.sql = sql;
      this.shown = shown;
    }

    /** The operator with its operands swapped ({@code a < b} is {@code b > a}). */
    public Op flip() {
      switch (this) {
        case LT:
          return GT;
        case LE:
          return GE;
        case GT:
          return LT;
        case GE:
          return LE;
        default:
          return this;
      }
    }
  }

  /** The columns the predicate reads. */
  default BitSet columns() {
    BitSet bits = new BitSet();
    collect(this, bits);
    return bits;
  }

  private static void collect(Pred p, BitSet bits) {
    if (p instanceof Cmp c) {
      bits.set(c.column());
    } else if (p instanceof IsNull n) {
      bits.set(n.column());
    } else if (p instanceof And a) {
      a.parts().forEach(x -> collect(x, bits));
    } else if (p instanceof Or o) {
      o.parts().forEach(x -> collect(x, bits));
    } else if (p instanceof Not n) {
      collect(n.part(), bits);
    }
  }

  /** Whether the predicate needs a dynamic parameter's value. */
  default boolean hasParams() {
    if (this instanceof Cmp c) {
      return c.value() instanceof Param;
    } else if (this instanceof And a) {
      return a.parts().stream().anyMatch(Pred::hasParams);
    } else if (this instanceof Or o) {
      return o.parts().stream().anyMatch(Pred::hasParams);
    } else if (this instanceof Not n) {
      return n.part().hasParams();
    }
    return false;
  }

  /** {@code column op value}. */
  record Cmp(int column, Op op, Operand value) implements Pred {}

  /** {@code column IS NULL}, or {@code IS NOT NULL} when negated. */
  record IsNull(int column, boolean negated) implements Pred {}

  /** Every part holds. */
  record And(List<Pred> parts) implements Pred {}

  /** At least one part holds. */
  record Or(List<Pred> parts) implements Pred {}

  /** The part does not hold. */
  record Not(Pred part) implements Pred {}

  /** A comparison's value. */
  sealed interface Operand {
    /** The internal value, resolving a parameter from {@code root}; null when unknown. */
    Object value(DataContext root, ColumnType type);
  }

  /** A literal's internal value. */
  record Literal(Object internal) implements Operand {
    @Override
    public Object value(DataContext root, ColumnType type) {
      return internal;
    }

    @Override
    public String toString() {
      return String.valueOf(internal);
    }
  }

  /** The dynamic parameter {@code ?index}, converted as Calcite's generated code converts it. */
  record Param(int index) implements Operand {
    @Override
    public Object value(DataContext root, ColumnType type) {
      if (root == null) {
        return null;
      }
      Object raw = root.get("?" + index);
      if (raw == null) {
        return null;
      }
      switch (type) {
        case TIMESTAMPTZ:
          return SqlFunctions.toLong(raw);
        case DATE:
          return SqlFunctions.toInt(raw);
        case DECIMAL_18_6:
        case DECIMAL_20_0:
          return SqlFunctions.toBigDecimal(raw);
        default:
          return raw.toString();
      }
    }

    @Override
    public String toString() {
      return "?" + index;
    }
  }
}
