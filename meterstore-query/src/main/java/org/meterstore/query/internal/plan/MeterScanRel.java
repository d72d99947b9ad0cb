package org.meterstore.query.internal.plan;

import java.util.List;
import java.util.Map;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.BuiltInMethod;
import org.meterstore.query.internal.exec.ScanSource;

/**
 * One tier scan in an executable plan ({@code MeterHotScan}, {@code MeterColdScan} or {@code
 * MeterCompleteness} in {@code EXPLAIN}): a leaf whose rows come from a {@link ScanSource} that the
 * generated code receives as a stashed object. Its plan terms say what was pushed into the tier.
 */
public final class MeterScanRel extends AbstractRelNode implements EnumerableRel {
  private final String kind;
  private final ScanSource source;
  private final Map<String, Object> terms;
  private final double rows;

  /**
   * @param kind the name shown in plans
   * @param terms what the plan shows, in order (also the relation's identity for the planner)
   */
  public MeterScanRel(
      RelOptCluster cluster,
      RelDataType rowType,
      String kind,
      ScanSource source,
      Map<String, Object> terms,
      double rows) {
    super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE));
    this.rowType = rowType;
    this.kind = kind;
    this.source = source;
    this.terms = terms;
    this.rows = rows;
  }

  @Override
  public String getRelTypeName() {
    return kind;
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    terms.forEach(w::item);
    return w;
  }

  @Override
  public RelNode copy(org.apache.calcite.plan.RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return rows;
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeCost(rows, rows, rows);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    PhysType physType =
        PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
    BlockBuilder builder = new BlockBuilder();
    Expression scan =
        Expressions.call(
            implementor.stash(source, ScanSource.class), "scan", implementor.getRootExpression());
    builder.add(
        getRowType().getFieldCount() == 1
            ? Expressions.call(BuiltInMethod.SLICE0.method, scan)
            : scan);
    return implementor.result(physType, builder.toBlock());
  }
}
