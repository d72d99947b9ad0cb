package org.meterstore.query.internal.exec;

import java.util.List;
import org.apache.calcite.DataContext;
import org.meterstore.api.table.ColumnType;

/**
 * Evaluates {@link Pred}s on full-width rows of internal values with SQL's three-valued logic: a
 * row passes only when the predicate is true (null means unknown). Used on cold rows so that the
 * read mode's predicates hold exactly, whatever Iceberg's own row filtering does.
 */
final class PredEval {
  private final DataContext root;
  // resolved once: TableDefinition.columns() builds a new list on every call
  private final ColumnType[] types;

  PredEval(ScanSpec spec, DataContext root) {
    this.root = root;
    this.types = spec.def().columns().stream().map(c -> c.type()).toArray(ColumnType[]::new);
  }

  boolean all(List<Pred> preds, Object[] row) {
    for (Pred p : preds) {
      if (!Boolean.TRUE.equals(eval(p, row))) {
        return false;
      }
    }
    return true;
  }

  private Boolean eval(Pred p, Object[] row) {
    if (p instanceof Pred.Cmp c) {
      return compare(c, row);
    }
    if (p instanceof Pred.IsNull n) {
      return (row[n.column()] == null) != n.negated();
    }
    if (p instanceof Pred.Not n) {
      Boolean inner = eval(n.part(), row);
      return inner == null ? null : !inner;
    }
    boolean and = p instanceof Pred.And;
    List<Pred> parts = and ? ((Pred.And) p).parts() : ((Pred.Or) p).parts();
    Boolean result = and;
    for (Pred part : parts) {
      Boolean v = eval(part, row);
      if (v == null) {
        result = null;
      } else if (v != and) {
        return v;
      }
    }
    return result;
  }

  @SuppressWarnings("unchecked") // internal values of one column type compare with each other
  private Boolean compare(Pred.Cmp c, Object[] row) {
    ColumnType type = types[c.column()];
    Object left = row[c.column()];
    Object right = c.value().value(root, type);
    if (left == null || right == null) {
      return null;
    }
    int cmp = ((Comparable<Object>) left).compareTo(normalise(right, left));
    switch (c.op()) {
      case EQ:
        return cmp == 0;
      case NE:
        return cmp != 0;
      case LT:
        return cmp < 0;
      case LE:
        return cmp <= 0;
      case GT:
        return cmp > 0;
      default:
        return cmp >= 0;
    }
  }

  private static Object normalise(Object value, Object like) {
    if (like instanceof Long && value instanceof Number n) {
      return n.longValue();
    }
    if (like instanceof Integer && value instanceof Number n) {
      return n.intValue();
    }
    return value;
  }
}
