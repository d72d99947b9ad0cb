package org.meterstore.query.internal.cold.filter;

import java.util.BitSet;
import java.util.List;

/**
 * A predicate of a cold scan with its values bound: comparisons of a storage column with a Calcite
 * internal value (epoch milliseconds for timestamps, epoch days for dates, {@code BigDecimal} for
 * decimals, {@code String} for text; null when a parameter was null, which makes the comparison
 * unknown), null tests, and their boolean combinations, evaluated with SQL's three-valued logic.
 * The planner's own predicates (with dynamic parameters) are bound into this form when a scan
 * opens; keeping this form here keeps the executor free of the planner's packages.
 */
public sealed interface ColdPred {

  /** The comparison operators. */
  enum Op {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE
  }

  /** {@code column op value}. */
  record Cmp(int column, Op op, Object value) implements ColdPred {}

  /** {@code column IS NULL}, or {@code IS NOT NULL} when negated. */
  record IsNull(int column, boolean negated) implements ColdPred {}

  /** Every part holds. */
  record And(List<ColdPred> parts) implements ColdPred {
    /** Copies the list. */
    public And {
      parts = List.copyOf(parts);
    }
  }

  /** At least one part holds. */
  record Or(List<ColdPred> parts) implements ColdPred {
    /** Copies the list. */
    public Or {
      parts = List.copyOf(parts);
    }
  }

  /** The part does not hold. */
  record Not(ColdPred part) implements ColdPred {}

  /** The storage columns the predicate reads. */
  default BitSet columns() {
    BitSet bits = new BitSet();
    if (this instanceof Cmp c) {
      bits.set(c.column());
    } else if (this instanceof IsNull n) {
      bits.set(n.column());
    } else if (this instanceof And a) {
      a.parts().forEach(p -> bits.or(p.columns()));
    } else if (this instanceof Or o) {
      o.parts().forEach(p -> bits.or(p.columns()));
    } else {
      bits.or(((Not) this).part().columns());
    }
    return bits;
  }
}
