package org.meterstore.query.internal.plan;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.Pair;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An {@code ORDER BY} without {@code LIMIT} or {@code OFFSET}, as Calcite's {@link EnumerableSort}
 * with another sort underneath: the rows are collected into a list and sorted by a stable merge
 * sort ({@link List#sort}, TimSort), where Calcite files each row into a tree map by its key. The
 * order is the same (equal keys keep their arrival order in both); the cost is not: the rows of a
 * tier scan arrive sorted by {@code (malo_id, from)}, so one location's readings ordered by {@code
 * from} are already in order or a few runs, which TimSort merges in linear time, while the tree map
 * pays a logarithmic insert per row (a quarter of a hot point read's time).
 */
public final class MeterSort extends EnumerableSort {
  private static final Method ORDER_BY =
      Types.lookupMethod(
          MeterSort.class, "orderBy", Enumerable.class, Function1.class, Comparator.class);

  /** Converts a logical sort without offset and fetch (what {@code EnumerableSortRule} takes). */
  public static final RelOptRule RULE =
      RuleConfig.of("MeterSortRule", b -> b.operand(LogicalSort.class).anyInputs(), SortRule::new)
          .toRule();

  MeterSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation) {
    super(cluster, traits, input, collation, null, null);
  }

  /** The sort of {@code input} by {@code collation}. */
  static MeterSort create(RelNode input, RelCollation collation) {
    RelTraitSet traits =
        input.getCluster().traitSetOf(EnumerableConvention.INSTANCE).replace(collation);
    return new MeterSort(input.getCluster(), traits, input, collation);
  }

  @Override
  public MeterSort copy(
      RelTraitSet traits,
      RelNode input,
      RelCollation collation,
      @Nullable RexNode offset,
      @Nullable RexNode fetch) {
    return new MeterSort(getCluster(), traits, input, collation);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    BlockBuilder builder = new BlockBuilder();
    Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), input.format);
    Expression rows = builder.append("child", input.block);
    Pair<Expression, Expression> key =
        input.physType.generateCollationKey(collation.getFieldCollations());
    Expression comparator =
        key.right == null
            ? Expressions.constant(null, Comparator.class)
            : builder.append("comparator", key.right);
    builder.add(
        Expressions.return_(
            null,
            Expressions.call(ORDER_BY, rows, builder.append("keySelector", key.left), comparator)));
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * {@code source} ordered by the keys {@code keySelector} gives, compared by {@code comparator}
   * (natural order when null); rows of equal keys keep their order. Sorted when enumerated, like
   * Calcite's {@code orderBy}.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static <T, K> Enumerable<T> orderBy(
      Enumerable<T> source, Function1<T, K> keySelector, @Nullable Comparator<K> comparator) {
    Comparator<K> keys = comparator != null ? comparator : (Comparator) Comparator.naturalOrder();
    return new AbstractEnumerable<T>() {
      @Override
      public Enumerator<T> enumerator() {
        List<T> rows = new ArrayList<>();
        try (Enumerator<T> e = source.enumerator()) {
          while (e.moveNext()) {
            rows.add(e.current());
          }
        }
        rows.sort((a, b) -> keys.compare(keySelector.apply(a), keySelector.apply(b)));
        return Linq4j.enumerator(rows);
      }
    };
  }

  /** See {@link #RULE}. */
  static final class SortRule extends RelRule<RuleConfig> {
    SortRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalSort sort = call.rel(0);
      if (sort.offset != null || sort.fetch != null) {
        return;
      }
      RelNode input = sort.getInput();
      call.transformTo(
          create(
              convert(input, input.getTraitSet().replace(EnumerableConvention.INSTANCE)),
              sort.getCollation()));
    }
  }
}
