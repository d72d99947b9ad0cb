package org.meterstore.query.internal.predicate;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * Translates Calcite row expressions over a table's full row into {@link Pred}s. Whatever it cannot
 * translate (functions, casts of columns, comparisons of two columns) is left out: the caller keeps
 * Calcite's own filter above the scan, so a predicate left out costs speed, never correctness.
 * {@code SEARCH} (ranges and IN lists as Sargs) is expanded first (docs/dependencies.md P14).
 */
public final class PredTranslator {
  private final TableDefinition table;
  private final RexBuilder rexBuilder;

  public PredTranslator(TableDefinition table, RexBuilder rexBuilder) {
    this.table = table;
    this.rexBuilder = rexBuilder;
  }

  /** The translation of {@code node}, or empty when any part of it cannot be translated. */
  public Optional<Pred> translate(RexNode node) {
    return Optional.ofNullable(tr(RexUtil.expandSearch(rexBuilder, null, node)));
  }

  private Pred tr(RexNode node) {
    if (!(node instanceof RexCall call)) {
      return null;
    }
    SqlKind kind = call.getKind();
    switch (kind) {
      case AND:
      case OR:
        List<Pred> parts = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
          Pred p = tr(operand);
          if (p == null) {
            return null;
          }
          parts.add(p);
        }
        return kind == SqlKind.AND ? new Pred.And(parts) : new Pred.Or(parts);
      case NOT:
        Pred inner = tr(call.getOperands().get(0));
        return inner == null ? null : new Pred.Not(inner);
      case IS_NULL:
      case IS_NOT_NULL:
        RexNode arg = call.getOperands().get(0);
        return arg instanceof RexInputRef ref
            ? new Pred.IsNull(ref.getIndex(), kind == SqlKind.IS_NOT_NULL)
            : null;
      case EQUALS:
        return comparison(call, Pred.Op.EQ);
      case NOT_EQUALS:
        return comparison(call, Pred.Op.NE);
      case LESS_THAN:
        return comparison(call, Pred.Op.LT);
      case LESS_THAN_OR_EQUAL:
        return comparison(call, Pred.Op.LE);
      case GREATER_THAN:
        return comparison(call, Pred.Op.GT);
      case GREATER_THAN_OR_EQUAL:
        return comparison(call, Pred.Op.GE);
      default:
        return null;
    }
  }

  private Pred comparison(RexCall call, Pred.Op op) {
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    if (left instanceof RexInputRef ref) {
      return cmp(ref, op, right);
    }
    if (right instanceof RexInputRef ref) {
      return cmp(ref, op.flip(), left);
    }
    return null;
  }

  private Pred cmp(RexInputRef ref, Pred.Op op, RexNode other) {
    int column = ref.getIndex();
    if (column >= table.columns().size()) {
      return null;
    }
    ColumnType type = table.columns().get(column).type();
    if (other instanceof RexDynamicParam param) {
      return new Pred.Cmp(column, op, new Pred.Param(param.getIndex()));
    }
    if (other instanceof RexLiteral literal) {
      Object value = literalValue(literal, type);
      return value == null ? null : new Pred.Cmp(column, op, new Pred.Literal(value));
    }
    return null;
  }

  /** The internal value of {@code literal} as a value of column type {@code type}, or null. */
  static Object literalValue(RexLiteral literal, ColumnType type) {
    if (literal.isNull()) {
      return null;
    }
    SqlTypeFamily family = literal.getType().getSqlTypeName().getFamily();
    switch (type) {
      case TIMESTAMPTZ:
        return family == SqlTypeFamily.TIMESTAMP ? literal.getValueAs(Long.class) : null;
      case DATE:
        return family == SqlTypeFamily.DATE ? literal.getValueAs(Integer.class) : null;
      case DECIMAL_18_6:
      case DECIMAL_20_0:
        return family == SqlTypeFamily.NUMERIC ? literal.getValueAs(BigDecimal.class) : null;
      default:
        return family == SqlTypeFamily.CHARACTER ? literal.getValueAs(String.class) : null;
    }
  }
}
