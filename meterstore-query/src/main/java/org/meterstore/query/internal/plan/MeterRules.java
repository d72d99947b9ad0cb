package org.meterstore.query.internal.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The rules of MeterStore's relations: push filters and projections into a {@link MeterTableScan}
 * and turn it into tier scans ({@link TierRouting}).
 */
public final class MeterRules {
  private MeterRules() {}

  /** Copies a filter's conjuncts into the scan below it; the filter stays. */
  public static final RelOptRule FILTER =
      RuleConfig.of(
              "MeterFilterIntoScan",
              b ->
                  b.operand(LogicalFilter.class)
                      .oneInput(s -> s.operand(MeterTableScan.class).noInputs()),
              FilterRule::new)
          .toRule();

  /** Narrows the scan to the columns a projection above it uses. */
  public static final RelOptRule PROJECT =
      RuleConfig.of(
              "MeterProjectIntoScan",
              b ->
                  b.operand(LogicalProject.class)
                      .oneInput(s -> s.operand(MeterTableScan.class).noInputs()),
              ProjectRule::new)
          .toRule();

  /** Routes a scan to the hot tier, the cold tier or both ({@code UNION ALL}). */
  public static final RelOptRule TO_ENUMERABLE =
      RuleConfig.of(
              "MeterTierRouting", b -> b.operand(MeterTableScan.class).noInputs(), RoutingRule::new)
          .toRule();

  /**
   * Computes an aggregate over a filtered scan's hot tier in PostgreSQL ({@link AggregateRule}).
   */
  public static final RelOptRule AGGREGATE_FILTER =
      aggregateRule("MeterAggregateFilterIntoHot", false, true);

  /** Computes an aggregate over an unfiltered scan's hot tier in PostgreSQL. */
  public static final RelOptRule AGGREGATE = aggregateRule("MeterAggregateIntoHot", false, false);

  /** Computes an aggregate over a projection of a filtered scan's hot tier in PostgreSQL. */
  public static final RelOptRule AGGREGATE_PROJECT_FILTER =
      aggregateRule("MeterAggregateProjectFilterIntoHot", true, true);

  /** Computes an aggregate over a projection of an unfiltered scan's hot tier in PostgreSQL. */
  public static final RelOptRule AGGREGATE_PROJECT =
      aggregateRule("MeterAggregateProjectIntoHot", true, false);

  private static RelOptRule aggregateRule(String name, boolean project, boolean filter) {
    RelRule.OperandTransform scan = s -> s.operand(MeterTableScan.class).noInputs();
    RelRule.OperandTransform belowProject =
        filter ? f -> f.operand(LogicalFilter.class).oneInput(scan) : scan;
    RelRule.OperandTransform belowAggregate =
        project ? p -> p.operand(LogicalProject.class).oneInput(belowProject) : belowProject;
    return RuleConfig.of(
            name,
            b -> b.operand(LogicalAggregate.class).oneInput(belowAggregate),
            c -> new AggregateRule(c, project, filter))
        .toRule();
  }

  /** Every rule, registered when a scan is. */
  public static final List<RelOptRule> ALL =
      List.of(
          FILTER,
          PROJECT,
          TO_ENUMERABLE,
          AGGREGATE_FILTER,
          AGGREGATE,
          AGGREGATE_PROJECT_FILTER,
          AGGREGATE_PROJECT);

  /** See {@link #FILTER}. */
  static final class FilterRule extends RelRule<RuleConfig> {
    FilterRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalFilter filter = call.rel(0);
      MeterTableScan scan = call.rel(1);
      RexBuilder rex = scan.getCluster().getRexBuilder();
      RexNode condition = RexUtil.expandSearch(rex, null, filter.getCondition());
      Set<RexNode> all = new LinkedHashSet<>(scan.filters);
      for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
        all.add(toFullRow(conjunct, scan));
      }
      if (all.size() == scan.filters.size()) {
        return;
      }
      RelNode refined = scan.withFilters(new ArrayList<>(all));
      call.transformTo(filter.copy(filter.getTraitSet(), refined, filter.getCondition()));
    }

    static RexNode toFullRow(RexNode node, MeterTableScan scan) {
      List<org.apache.calcite.rel.type.RelDataTypeField> full =
          scan.getTable().getRowType().getFieldList();
      return node.accept(
          new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
              int column = scan.projects[ref.getIndex()];
              return new RexInputRef(column, full.get(column).getType());
            }
          });
    }
  }

  /** See {@link #PROJECT}. */
  static final class ProjectRule extends RelRule<RuleConfig> {
    ProjectRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      LogicalProject project = call.rel(0);
      MeterTableScan scan = call.rel(1);
      ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
      if (used.cardinality() == scan.projects.length) {
        return;
      }
      if (used.isEmpty()) {
        used = ImmutableBitSet.of(0);
      }
      int[] position = new int[scan.projects.length];
      int[] narrowed = new int[used.cardinality()];
      int i = 0;
      for (int u : used) {
        position[u] = i;
        narrowed[i++] = scan.projects[u];
      }
      MeterTableScan refined = scan.withProjects(narrowed);
      List<RexNode> remapped = new ArrayList<>();
      for (RexNode e : project.getProjects()) {
        remapped.add(
            e.accept(
                new RexShuttle() {
                  @Override
                  public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(position[ref.getIndex()], ref.getType());
                  }
                }));
      }
      call.transformTo(
          call.builder()
              .push(refined)
              .project(remapped, project.getRowType().getFieldNames(), true)
              .build());
    }
  }

  /** See {@link #TO_ENUMERABLE}. */
  static final class RoutingRule extends RelRule<RuleConfig> {
    RoutingRule(RuleConfig config) {
      super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
      call.transformTo(TierRouting.route(call.rel(0)));
    }
  }
}
