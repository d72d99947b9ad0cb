package org.meterstore.query.internal.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;
import org.meterstore.api.table.ColumnType;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.hot.HotAggregate;
import org.meterstore.query.internal.predicate.Pred;
import org.meterstore.query.internal.predicate.PredTranslator;

/**
 * Runs an aggregation inside both tiers' scans. {@code Aggregate(Filter?(scan))} becomes a final
 * aggregate over {@code UNION ALL} of the hot partial result ({@code MeterHotAggregate}: a {@code
 * GROUP BY} statement in PostgreSQL over the resolved, filtered hot rows) and the cold partial
 * result ({@code MeterColdAggregate}: computed by the columnar cold executor over the resolved,
 * filtered cold rows); where the cold executor cannot compute it, Calcite aggregates the rows of a
 * cold-only scan instead. Partial results roll up exactly: {@code SUM} of sums, {@code SUM0} of
 * counts and of {@code SUM0}s, {@code MIN} of minima, {@code MAX} of maxima.
 *
 * <p>A projection between the aggregate and the scan may make group keys of {@code FLOOR(column TO
 * YEAR|MONTH|DAY)} and {@code EXTRACT(YEAR|MONTH|DAY FROM column)} on dates and timestamps ({@code
 * HOUR} too on timestamps; in UTC, as Calcite evaluates them); aggregate arguments must be plain
 * columns. Both partial results are part of the plan whatever W is: each execution's W decides
 * which rows each side reads.
 *
 * <p>It fires only when PostgreSQL computes exactly what Calcite would: one grouping set; {@code
 * SUM}, {@code COUNT}, {@code MIN}, {@code MAX} without {@code DISTINCT} or {@code FILTER}; no
 * {@code MIN}/{@code MAX} of text and no ordering comparison of text in the filter (PostgreSQL's
 * collation may order strings differently); every conjunct of the filter translatable (so nothing
 * is left for Calcite to apply after the rows are aggregated). Otherwise the plan stays as it was:
 * Calcite aggregates the pushed, resolved rows.
 */
final class AggregateRule extends RelRule<RuleConfig> {
  private final boolean withProject;
  private final boolean withFilter;

  AggregateRule(RuleConfig config, boolean withProject, boolean withFilter) {
    super(config);
    this.withProject = withProject;
    this.withFilter = withFilter;
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    int i = 0;
    LogicalAggregate aggregate = call.rel(i++);
    LogicalProject project = withProject ? call.rel(i++) : null;
    LogicalFilter filter = withFilter ? call.rel(i++) : null;
    MeterTableScan scan = call.rel(i);
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
      PredTranslator translator = new PredTranslator(scan.def, scan.getCluster().getRexBuilder());
      for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
        RexNode full = MeterRules.FilterRule.toFullRow(conjunct, scan);
        Pred pred = translator.translate(full).orElse(null);
        if (pred == null || ordersText(pred, scan)) {
          return;
        }
        conjuncts.add(full);
      }
    }
    HotAggregate hot = hotAggregate(aggregate, project, scan);
    if (hot == null) {
      return;
    }
    MeterTableScan exact = scan.withFilters(conjuncts);
    TierRouting.Decision decision = TierRouting.decide(exact);
    ColdAggregation cold = decision.cold() ? ColdAggregations.of(hot, exact.def) : null;
    if (!decision.hot() && cold == null) {
      return;
    }
    List<RelNode> parts = new ArrayList<>();
    if (decision.hot()) {
      parts.add(TierRouting.hotAggregate(exact, decision, hot, aggregate.getRowType()));
    }
    if (cold != null) {
      parts.add(
          TierRouting.coldAggregate(
              exact, decision, cold, hot.describe(decision.spec()), aggregate.getRowType()));
    } else if (decision.cold()) {
      MeterTableScan coldScan = exact.coldOnly();
      RelNode input =
          filter == null
              ? coldScan
              : filter.copy(filter.getTraitSet(), coldScan, filter.getCondition());
      if (project != null) {
        input = project.copy(project.getTraitSet(), List.of(input));
      }
      parts.add(aggregate.copy(aggregate.getTraitSet(), List.of(input)));
    }
    RelNode union = parts.size() == 1 ? parts.get(0) : LogicalUnion.create(parts, true);
    call.transformTo(rollUp(aggregate, union));
  }

  /**
   * The PostgreSQL form of {@code aggregate} over {@code project} (may be null) over {@code scan},
   * or null when it has none.
   */
  private static HotAggregate hotAggregate(
      LogicalAggregate aggregate, LogicalProject project, MeterTableScan scan) {
    List<HotAggregate.Key> groups = new ArrayList<>();
    for (int key : aggregate.getGroupSet()) {
      HotAggregate.Key k = keyOf(project, key, scan);
      if (k == null) {
        return null;
      }
      groups.add(k);
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
      int arg = -1;
      if (!c.getArgList().isEmpty()) {
        HotAggregate.Key k = keyOf(project, c.getArgList().get(0), scan);
        if (k == null || k.function() != HotAggregate.KeyFunction.NONE) {
          return null;
        }
        arg = k.column();
      }
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

  /** Aggregate input field {@code index} as a key, or null when it is not one. */
  private static HotAggregate.Key keyOf(LogicalProject project, int index, MeterTableScan scan) {
    return project == null
        ? new HotAggregate.Key(scan.projects[index], HotAggregate.KeyFunction.NONE)
        : key(project.getProjects().get(index), scan);
  }

  /**
   * A column of {@code scan}, plain, truncated by {@code FLOOR(… TO unit)} or a field of it by
   * {@code EXTRACT(unit FROM …)}, or null.
   */
  private static HotAggregate.Key key(RexNode e, MeterTableScan scan) {
    if (e instanceof RexInputRef ref) {
      return new HotAggregate.Key(scan.projects[ref.getIndex()], HotAggregate.KeyFunction.NONE);
    }
    if (!(e instanceof RexCall call) || call.getOperands().size() != 2) {
      return null;
    }
    boolean extract = e.getKind() == SqlKind.EXTRACT;
    if (!extract && e.getKind() != SqlKind.FLOOR) {
      return null;
    }
    RexNode operand = call.getOperands().get(extract ? 1 : 0);
    RexNode flag = call.getOperands().get(extract ? 0 : 1);
    if (!(operand instanceof RexInputRef ref) || !(flag instanceof RexLiteral unit)) {
      return null;
    }
    int column = scan.projects[ref.getIndex()];
    ColumnType type = type(scan, column);
    if (type != ColumnType.DATE && type != ColumnType.TIMESTAMPTZ) {
      return null;
    }
    HotAggregate.KeyFunction f = function(unit.getValueAs(TimeUnitRange.class), extract);
    if (f == null || (f.unit.equals("hour") && type != ColumnType.TIMESTAMPTZ)) {
      return null;
    }
    return new HotAggregate.Key(column, f);
  }

  private static HotAggregate.KeyFunction function(TimeUnitRange range, boolean extract) {
    if (range == null) {
      return null;
    }
    switch (range) {
      case YEAR:
        return extract
            ? HotAggregate.KeyFunction.EXTRACT_YEAR
            : HotAggregate.KeyFunction.FLOOR_YEAR;
      case MONTH:
        return extract
            ? HotAggregate.KeyFunction.EXTRACT_MONTH
            : HotAggregate.KeyFunction.FLOOR_MONTH;
      case DAY:
        return extract ? HotAggregate.KeyFunction.EXTRACT_DAY : HotAggregate.KeyFunction.FLOOR_DAY;
      case HOUR:
        return extract
            ? HotAggregate.KeyFunction.EXTRACT_HOUR
            : HotAggregate.KeyFunction.FLOOR_HOUR;
      default:
        return null;
    }
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
    return scan.def.columns().get(storageIndex).type();
  }
}
