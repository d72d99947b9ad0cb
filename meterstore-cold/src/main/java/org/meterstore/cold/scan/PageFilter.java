package org.meterstore.cold.scan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.And;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.BoundReference;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Or;
import org.apache.iceberg.types.Type;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The part of a scan's residual filter that a file's page indexes can answer, as a Parquet filter
 * predicate over the file's column names (matched by Iceberg field id): equality and {@code IN} on
 * text columns ({@code malo_id}, {@code obis_code}), comparisons on timestamp columns ({@code
 * from}), and {@code AND} / {@code OR} of them. A leaf it cannot translate (another column type or
 * operator, a negation) stands for "every row": it is dropped from an {@code AND} and makes an
 * {@code OR} untranslatable. So the predicate never rules out a row the residual may match; rows it
 * keeps are not guaranteed to match, and readers' callers filter rows exactly.
 */
final class PageFilter {
  private final Map<Integer, String> binaryColumns = new HashMap<>();
  private final Map<Integer, String> longColumns = new HashMap<>();

  private PageFilter(MessageType file) {
    for (org.apache.parquet.schema.Type t : file.getFields()) {
      if (t.getId() == null || !t.isPrimitive() || t.getName().contains(".")) {
        continue;
      }
      PrimitiveTypeName physical = t.asPrimitiveType().getPrimitiveTypeName();
      if (physical == PrimitiveTypeName.BINARY) {
        binaryColumns.put(t.getId().intValue(), t.getName());
      } else if (physical == PrimitiveTypeName.INT64) {
        longColumns.put(t.getId().intValue(), t.getName());
      }
    }
  }

  /**
   * The page predicate of {@code residual} for a file of schema {@code file} (written with field
   * ids), or null when no part of it can be answered by page indexes.
   *
   * @param schema the schema the residual is bound to
   */
  static FilterPredicate of(Schema schema, Expression residual, MessageType file) {
    if (residual == null || residual.op() == Expression.Operation.TRUE) {
      return null;
    }
    Expression bound = Binder.bind(schema.asStruct(), Expressions.rewriteNot(residual), true);
    return new PageFilter(file).translate(bound);
  }

  private FilterPredicate translate(Expression e) {
    switch (e.op()) {
      case AND:
        {
          And and = (And) e;
          FilterPredicate left = translate(and.left());
          FilterPredicate right = translate(and.right());
          if (left == null || right == null) {
            return left == null ? right : left;
          }
          return FilterApi.and(left, right);
        }
      case OR:
        {
          Or or = (Or) e;
          FilterPredicate left = translate(or.left());
          FilterPredicate right = translate(or.right());
          return left == null || right == null ? null : FilterApi.or(left, right);
        }
      default:
        return e instanceof BoundPredicate<?> p ? leaf(p) : null;
    }
  }

  private FilterPredicate leaf(BoundPredicate<?> p) {
    if (!(p.term() instanceof BoundReference<?> ref)) {
      return null;
    }
    Type.TypeID type = ref.type().typeId();
    if (type == Type.TypeID.STRING && binaryColumns.containsKey(ref.fieldId())) {
      return text(FilterApi.binaryColumn(binaryColumns.get(ref.fieldId())), p);
    }
    if (type == Type.TypeID.TIMESTAMP && longColumns.containsKey(ref.fieldId())) {
      return timestamp(FilterApi.longColumn(longColumns.get(ref.fieldId())), p);
    }
    return null;
  }

  private static FilterPredicate text(Operators.BinaryColumn column, BoundPredicate<?> p) {
    if (p.isLiteralPredicate() && p.op() == Expression.Operation.EQ) {
      Object v = p.asLiteralPredicate().literal().value();
      return FilterApi.eq(column, Binary.fromString(v.toString()));
    }
    if (p.isSetPredicate() && p.op() == Expression.Operation.IN) {
      // an OR of equalities: Parquet's column index answers IN by the set's minimum and maximum
      // alone, which for two distant locations keeps every page between them
      List<FilterPredicate> equalities = new ArrayList<>();
      for (Object v : p.asSetPredicate().literalSet()) {
        equalities.add(FilterApi.eq(column, Binary.fromString(v.toString())));
      }
      return equalities.isEmpty() ? null : anyOf(equalities, 0, equalities.size());
    }
    return null;
  }

  /**
   * The OR of {@code leaves[from, to)} as a balanced tree: every visitor of a predicate (Parquet's
   * filters, {@link DictionaryMembership}) recurses into ORs, and a chain as deep as the list (a
   * correction batch of 20,000 locations) overflowed the stack; a balanced tree is 15 deep there.
   */
  static FilterPredicate anyOf(List<FilterPredicate> leaves, int from, int to) {
    if (to - from == 1) {
      return leaves.get(from);
    }
    int middle = (from + to) >>> 1;
    return FilterApi.or(anyOf(leaves, from, middle), anyOf(leaves, middle, to));
  }

  private static FilterPredicate timestamp(Operators.LongColumn column, BoundPredicate<?> p) {
    if (!p.isLiteralPredicate()
        || !(p.asLiteralPredicate().literal().value() instanceof Long micros)) {
      return null;
    }
    switch (p.op()) {
      case LT:
        return FilterApi.lt(column, micros);
      case LT_EQ:
        return FilterApi.ltEq(column, micros);
      case GT:
        return FilterApi.gt(column, micros);
      case GT_EQ:
        return FilterApi.gtEq(column, micros);
      case EQ:
        return FilterApi.eq(column, micros);
      default:
        return null;
    }
  }
}
