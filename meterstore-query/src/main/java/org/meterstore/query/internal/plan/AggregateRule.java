package org.meterstore.query.internal.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;
import org.meterstore.api.table.ColumnType;
import org.meterstore.query.internal.exec.HotAggregate;
import org.meterstore.query.internal.exec.Pred;
import org.meterstore.query.internal.exec.PredTranslator;

/**
 * Runs an aggregation over the hot tier inside PostgreSQL. {@code Aggregate(Filter?(scan))} becomes
 * a final aggregate over {@code UNION ALL} of the hot partial result (a {@code GROUP BY} statement
 * in PostgreSQL over the resolved, filtered hot rows) and, when the range reaches below W, the same
 * aggregate over a cold-only scan. Partial results roll up exactly: {@code SUM} of sums, {@code
 * SUM0} of counts and of {@code SUM0}s, {@code MIN} of minima, {@code MAX} of maxima.
 *
 * <p>It fires only when PostgreSQL computes exactly what Calcite would: one grouping set; {@code
 * SUM}, {@code COUNT}, {@code MIN}, {@code MAX} without {@code DISTINCT} or {@code FILTER}; no
 * {@code MIN}/{@code MAX} of text and no ordering comparison of text in the filter (PostgreSQL's
 * collation may order strings differently); every conjunct of the filter translatable (so nothing
 * is left for Calcite to apply after the rows are aggregated). Otherwise the plan stays as it was:
 * Calcite aggregates the pushed, resolved rows.
 */
final class AggregateRule extends RelRule<RuleConfig> {
  private final boolean withFilter;

  AggregateRule(RuleConfig config, boolean withFilter) {
    super(config);
    this.withFilter = withFilter;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    LogicalAggregate aggregate = call.rel(0);
    LogicalFilter filter = withFilter ? call.rel(1) : null;
    MeterTableScan scan = call.rel(withFilter ? 2 : 1);
    if (scan.coldOnly || aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
      return;
    }
    if (filter == null && !scan.filters.isEmpty()) {
      return;
    }
    List<RexNode> conjuncts = new ArrayList<>();
    if (filter != null) {
      RexNode condition =
          RexUtil.expandSearch(scan.getCluster().getRexBuilder(), null, filter.getCondition());
      PredTranslator translator =
          new PredTranslator(scan.state.def(), scan.getCluster().getRexBuilder());
      for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
        RexNode full = MeterRules.FilterRule.toFullRow(conjunct, scan);
        Pred pred = translator.translate(full).orElse(null);
        if (pred == null || ordersText(pred, scan)) {
          return;
        }
        conjuncts.add(full);
      }
    }
    HotAggregate hot = hotAggregate(aggregate, scan);
    if (hot == null) {
      return;
    }
    MeterTableScan exact = scan.withFilters(conjuncts);
    TierRouting.Decision decision = TierRouting.decide(exact);
    if (decision.partitions().isEmpty()) {
      return;
    }
    List<RelNode> parts = new ArrayList<>();
    parts.add(TierRouting.hotAggregate(exact, decision, hot, aggregate.getRowType()));
    if (decision.cold()) {
      MeterTableScan cold = exact.coldOnly();
      RelNode input =
          filter == null ? cold : filter.copy(filter.getTraitSet(), cold, filter.getCondition());
      parts.add(aggregate.copy(aggregate.getTraitSet(), List.of(input)));
    }
    RelNode union = parts.size() == 1 ? parts.get(0) : LogicalUnion.create(parts, true);
    call.transformTo(rollUp(aggregate, union));
  }

  /** The PostgreSQL form of {@code aggregate}, or null when it has none. */
  private static HotAggregate hotAggregate(LogicalAggregate aggregate, MeterTableScan scan) {
    List<Integer> groupKeys = aggregate.getGroupSet().asList();
    int[] groups = new int[groupKeys.size()];
    for (int i = 0; i < groups.length; i++) {
      groups[i] = scan.projects[groupKeys.get(i)];
    }
    List<HotAggregate.Call> calls = new ArrayList<>();
    for (AggregateCall c : aggregate.getAggCallList()) {
      if (c.isDistinct()
          || c.isApproximate()
          || c.filterArg >= 0
          || !c.getCollation().getFieldCollations().isEmpty()
          || c.getArgList().size() > 1) {
        return null;
      }
      int arg = c.getArgList().isEmpty() ? -1 : scan.projects[c.getArgList().get(0)];
      HotAggregate.Kind kind;
      switch (c.getAggregation().getKind()) {
        case SUM:
          kind = HotAggregate.Kind.SUM;
          break;
        case SUM0:
          kind = HotAggregate.Kind.SUM0;
          break;
        case COUNT:
          kind = HotAggregate.Kind.COUNT;
          break;
        case MIN:
          kind = HotAggregate.Kind.MIN;
          break;
        case MAX:
          kind = HotAggregate.Kind.MAX;
          break;
        default:
          return null;
      }
      if (kind != HotAggregate.Kind.COUNT && arg < 0) {
        return null;
      }
      if ((kind == HotAggregate.Kind.MIN || kind == HotAggregate.Kind.MAX)
          && type(scan, arg) == ColumnType.TEXT) {
        return null;
      }
      calls.add(new HotAggregate.Call(kind, arg));
    }
    return new HotAggregate(groups, calls);
  }

  /** The final aggregate over the partial results in {@code input}, typed as {@code original}. */
  private static RelNode rollUp(LogicalAggregate original, RelNode input) {
    int groupCount = original.getGroupCount();
    List<AggregateCall> finals = new ArrayList<>();
    List<AggregateCall> calls = original.getAggCallList();
    for (int i = 0; i < calls.size(); i++) {
      AggregateCall c = calls.get(i);
      SqlAggFunction function =
          switch (c.getAggregation().getKind()) {
            case COUNT, SUM0 -> SqlStdOperatorTable.SUM0;
            case MIN -> SqlStdOperatorTable.MIN;
            case MAX -> SqlStdOperatorTable.MAX;
            default -> SqlStdOperatorTable.SUM;
          };
      finals.add(
          AggregateCall.create(
              function,
              false,
              false,
              false,
              List.of(),
              List.of(groupCount + i),
              -1,
              null,
              RelCollations.EMPTY,
              c.getType(),
              c.getName()));
    }
    return LogicalAggregate.create(
        input, List.of(), ImmutableBitSet.range(groupCount), null, finals);
  }

  private static boolean ordersText(Pred pred, MeterTableScan scan) {
    if (pred instanceof Pred.Cmp c) {
      return c.op() != Pred.Op.EQ
          && c.op() != Pred.Op.NE
          && type(scan, c.column()) == ColumnType.TEXT;
    }
    if (pred instanceof Pred.And a) {
      return a.parts().stream().anyMatch(p -> ordersText(p, scan));
    }
    if (pred instanceof Pred.Or o) {
      return o.parts().stream().anyMatch(p -> ordersText(p, scan));
    }
    if (pred instanceof Pred.Not n) {
      return ordersText(n.part(), scan);
    }
    return false;
  }

  private static ColumnType type(MeterTableScan scan, int storageIndex) {
    return scan.state.def().columns().get(storageIndex).type();
  }
}
