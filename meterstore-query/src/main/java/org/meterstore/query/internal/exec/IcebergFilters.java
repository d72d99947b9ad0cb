package org.meterstore.query.internal.exec;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.meterstore.api.table.ColumnType;
import org.meterstore.query.internal.predicate.Pred;

/**
 * Renders {@link Pred}s as Iceberg expressions, which Iceberg uses for partition pruning, file and
 * row-group statistics and row filtering. Timestamps become microseconds, dates epoch days, and
 * decimals take the column's scale (a value that does not fit it exactly is not pushed). A
 * top-level conjunct that cannot be rendered is left out, which only widens the scan.
 */
final class IcebergFilters {
  private final ScanSpec spec;
  private final DataContext root;

  IcebergFilters(ScanSpec spec, DataContext root) {
    this.spec = spec;
    this.root = root;
  }

  /** The conjunction of every renderable conjunct of {@code preds}. */
  Expression and(List<Pred> preds) {
    Expression result = Expressions.alwaysTrue();
    for (Pred p : preds) {
      Expression e = render(p);
      if (e != null) {
        result = Expressions.and(result, e);
      }
    }
    return result;
  }

  private Expression render(Pred p) {
    if (p instanceof Pred.Cmp c) {
      return compare(c);
    }
    if (p instanceof Pred.IsNull n) {
      String name = spec.name(n.column());
      return n.negated() ? Expressions.notNull(name) : Expressions.isNull(name);
    }
    if (p instanceof Pred.Not n) {
      Expression inner = render(n.part());
      return inner == null ? null : Expressions.not(inner);
    }
    boolean and = p instanceof Pred.And;
    List<Pred> parts = and ? ((Pred.And) p).parts() : ((Pred.Or) p).parts();
    Expression result = and ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
    for (Pred part : parts) {
      Expression e = render(part);
      if (e == null) {
        return null;
      }
      result = and ? Expressions.and(result, e) : Expressions.or(result, e);
    }
    return result;
  }

  private Expression compare(Pred.Cmp c) {
    ColumnType type = spec.type(c.column());
    Object value = icebergValue(c.value().value(root, type), type);
    if (value == null) {
      return null;
    }
    String name = spec.name(c.column());
    switch (c.op()) {
      case EQ:
        return Expressions.equal(name, value);
      case NE:
        return Expressions.notEqual(name, value);
      case LT:
        return Expressions.lessThan(name, value);
      case LE:
        return Expressions.lessThanOrEqual(name, value);
      case GT:
        return Expressions.greaterThan(name, value);
      default:
        return Expressions.greaterThanOrEqual(name, value);
    }
  }

  private static Object icebergValue(Object internal, ColumnType type) {
    if (internal == null) {
      return null;
    }
    switch (type) {
      case TIMESTAMPTZ:
        return ((Number) internal).longValue() * 1000L;
      case DATE:
        return ((Number) internal).intValue();
      case DECIMAL_18_6:
        return rescale((BigDecimal) internal, 6);
      case DECIMAL_20_0:
        return rescale((BigDecimal) internal, 0);
      default:
        return internal.toString();
    }
  }

  private static BigDecimal rescale(BigDecimal value, int scale) {
    try {
      return value.setScale(scale);
    } catch (ArithmeticException e) {
      return null;
    }
  }
}
