package org.meterstore.query.internal.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.mode.ReadMode;

/**
 * The logical scan of a MeterStore relation before it is routed to a tier. {@link MeterRules} copy
 * the filters above it into it (over the table's full row, Calcite's filter stays in place) and
 * narrow its columns; {@link MeterRules#TO_ENUMERABLE} then routes it by the {@code from} range of
 * the filters. The cost falls with every absorbed filter and column, so the planner picks the most
 * refined copy.
 */
public final class MeterTableScan extends TableScan {
  private static final double BASE_ROWS = 1e6;

  final CatalogRuntime runtime;
  final TableDefinition def;
  final ReadMode mode;
  final boolean resolve;
  final List<RexNode> filters;
  final int[] projects;

  /**
   * Whether this scan reads the cold tier only: the cold half of an aggregation whose hot half
   * PostgreSQL computes ({@link MeterRules#AGGREGATE}).
   */
  final boolean coldOnly;

  MeterTableScan(
      RelOptCluster cluster,
      RelOptTable table,
      CatalogRuntime runtime,
      TableDefinition def,
      ReadMode mode,
      boolean resolve,
      List<RexNode> filters,
      int[] projects) {
    this(cluster, table, runtime, def, mode, resolve, filters, projects, false);
  }

  private MeterTableScan(
      RelOptCluster cluster,
      RelOptTable table,
      CatalogRuntime runtime,
      TableDefinition def,
      ReadMode mode,
      boolean resolve,
      List<RexNode> filters,
      int[] projects,
      boolean coldOnly) {
    super(cluster, cluster.traitSetOf(Convention.NONE), List.of(), table);
    this.runtime = runtime;
    this.def = def;
    this.mode = mode;
    this.resolve = resolve;
    this.filters = List.copyOf(filters);
    this.projects = projects == null ? identity(table.getRowType().getFieldCount()) : projects;
    this.coldOnly = coldOnly;
  }

  private static int[] identity(int n) {
    int[] p = new int[n];
    Arrays.setAll(p, i -> i);
    return p;
  }

  MeterTableScan withFilters(List<RexNode> newFilters) {
    return new MeterTableScan(
        getCluster(), getTable(), runtime, def, mode, resolve, newFilters, projects, coldOnly);
  }

  MeterTableScan withProjects(int[] newProjects) {
    return new MeterTableScan(
        getCluster(), getTable(), runtime, def, mode, resolve, filters, newProjects, coldOnly);
  }

  MeterTableScan coldOnly() {
    return new MeterTableScan(
        getCluster(), getTable(), runtime, def, mode, resolve, filters, projects, true);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public RelDataType deriveRowType() {
    List<RelDataTypeField> fields = table.getRowType().getFieldList();
    List<RelDataType> types = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int p : projects) {
      types.add(fields.get(p).getType());
      names.add(fields.get(p).getName());
    }
    return getCluster().getTypeFactory().createStructType(types, names);
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .item("mode", mode.describe())
        .item("resolve", resolve)
        .itemIf("filters", filters, !filters.isEmpty())
        .item("projects", Arrays.toString(projects))
        .itemIf("tiers", "cold", coldOnly);
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return BASE_ROWS * Math.pow(0.25, filters.size());
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    double rows = estimateRowCount(mq);
    double width = (double) projects.length / table.getRowType().getFieldCount();
    return planner.getCostFactory().makeCost(rows, rows * width, rows * width);
  }

  @Override
  public void register(RelOptPlanner planner) {
    MeterRules.ALL.forEach(planner::addRule);
    // the same sorts, sorted the way tier scans' rows arrive (MeterSort)
    planner.removeRule(EnumerableRules.ENUMERABLE_SORT_RULE);
    planner.addRule(MeterSort.RULE);
  }
}
