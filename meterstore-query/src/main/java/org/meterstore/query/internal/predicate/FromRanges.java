package org.meterstore.query.internal.predicate;

import java.time.Instant;
import java.util.List;
import org.apache.calcite.DataContext;
import org.meterstore.api.table.ColumnType;

/**
 * Extracts the {@code from} range a set of conjuncts allows, erring only wider: anything it does
 * not understand (a negation, a comparison with an unknown parameter) allows every instant. {@code
 * <=} and {@code =} widen the upper bound by a millisecond, the precision of Calcite's timestamps.
 */
public final class FromRanges {
  private FromRanges() {}

  /**
   * The range the conjunction of {@code preds} allows for column {@code fromColumn}.
   *
   * @param root the statement's parameters, or null at planning (parameters then allow anything)
   */
  public static FromRange of(List<Pred> preds, int fromColumn, DataContext root) {
    FromRange range = FromRange.ALL;
    for (Pred p : preds) {
      range = range.intersect(range(p, fromColumn, root));
    }
    return range;
  }

  private static FromRange range(Pred p, int column, DataContext root) {
    if (p instanceof Pred.And and) {
      FromRange r = FromRange.ALL;
      for (Pred part : and.parts()) {
        r = r.intersect(range(part, column, root));
      }
      return r;
    }
    if (p instanceof Pred.Or or) {
      FromRange r = FromRange.EMPTY;
      for (Pred part : or.parts()) {
        r = r.span(range(part, column, root));
      }
      return r;
    }
    if (p instanceof Pred.Cmp cmp && cmp.column() == column) {
      Object v = cmp.value().value(root, ColumnType.TIMESTAMPTZ);
      return v == null ? FromRange.ALL : compare(cmp.op(), ((Number) v).longValue());
    }
    if (p instanceof Pred.IsNull n && n.column() == column && !n.negated()) {
      return FromRange.EMPTY;
    }
    return FromRange.ALL;
  }

  private static FromRange compare(Pred.Op op, long millis) {
    Instant at = Instant.ofEpochMilli(millis);
    Instant next = at.plusMillis(1);
    switch (op) {
      case EQ:
        return new FromRange(at, next);
      case LT:
        return new FromRange(Instant.MIN, at);
      case LE:
        return new FromRange(Instant.MIN, next);
      case GT:
      case GE:
        return new FromRange(at, Instant.MAX);
      default:
        return FromRange.ALL;
    }
  }
}
