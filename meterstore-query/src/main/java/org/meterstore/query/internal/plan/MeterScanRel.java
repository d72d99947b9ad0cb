package org.meterstore.query.internal.plan;

import java.time.Instant;
import java.util.LinkedHashMap;
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
import org.apache.calcite.rel.externalize.RelWriterImpl;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.util.BuiltInMethod;
import org.meterstore.query.internal.exec.ScanSource;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.QueryContext;
import org.meterstore.query.internal.state.TableState;

/**
 * One tier scan in an executable plan ({@code MeterHotScan}, {@code MeterColdScan}, {@code
 * MeterHotAggregate} or {@code MeterCompleteness} in {@code EXPLAIN}): a leaf whose rows come from
 * a {@link ScanSource} that the generated code receives as a stashed object. Its plan terms say
 * what was pushed into the tier; in the text of an {@code EXPLAIN} they also say what an execution
 * would read now (W, snapshot, partitions, resolution), which is not part of the plan: a cached
 * plan binds to each execution's own state.
 */
public final class MeterScanRel extends AbstractRelNode implements EnumerableRel {
  private final String kind;
  private final ScanSource source;
  private final Map<String, Object> terms;
  private final double rows;
  private final CatalogRuntime runtime;
  private final ScanSpec spec;
  private Map<String, Object> live;

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
    this(cluster, rowType, kind, source, terms, rows, null, null);
  }

  /**
   * A scan of {@code spec}'s table, whose {@code EXPLAIN} text adds {@link ScanSource#describe} of
   * the table's state now.
   */
  public MeterScanRel(
      RelOptCluster cluster,
      RelDataType rowType,
      String kind,
      ScanSource source,
      Map<String, Object> terms,
      double rows,
      CatalogRuntime runtime,
      ScanSpec spec) {
    super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE));
    this.rowType = rowType;
    this.kind = kind;
    this.source = source;
    this.terms = terms;
    this.rows = rows;
    this.runtime = runtime;
    this.spec = spec;
  }

  @Override
  public String getRelTypeName() {
    return kind;
  }

  /** Equal terms of different kinds (a hot and a cold side of one scan) are different relations. */
  @Override
  public boolean deepEquals(Object obj) {
    return obj instanceof MeterScanRel other && kind.equals(other.kind) && super.deepEquals(obj);
  }

  @Override
  public int deepHashCode() {
    return 31 * super.deepHashCode() + kind.hashCode();
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    RelWriter w = super.explainTerms(pw);
    terms.forEach(w::item);
    if (pw instanceof RelWriterImpl) {
      live().forEach(w::item);
    }
    return w;
  }

  /** The state-dependent terms, when an {@code EXPLAIN} is being planned on this thread. */
  private Map<String, Object> live() {
    QueryContext context = runtime == null ? null : runtime.currentOrNull();
    if (context == null || !context.isExplaining()) {
      return Map.of();
    }
    if (live == null) {
      TableState state = context.state(spec.def(), spec.mode());
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("watermark", watermark(state));
      out.putAll(source.describe(state));
      live = out;
    }
    return live;
  }

  private static String watermark(TableState state) {
    if (state.watermark() != null) {
      return state.watermark().toString();
    }
    if (!state.readsCold()) {
      return "not read";
    }
    Instant b = state.boundary();
    return "unavailable (hot from " + (b.equals(Instant.MAX) ? "nothing" : b.toString()) + ")";
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
