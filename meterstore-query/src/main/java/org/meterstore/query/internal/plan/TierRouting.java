package org.meterstore.query.internal.plan;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableUnion;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.exec.ColdSource;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.hot.HotAggregate;
import org.meterstore.query.internal.hot.HotSource;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.internal.predicate.FromRanges;
import org.meterstore.query.internal.predicate.Pred;
import org.meterstore.query.internal.predicate.PredText;
import org.meterstore.query.internal.predicate.PredTranslator;
import org.meterstore.query.mode.ReadMode;

/**
 * Routes a {@link MeterTableScan} to the tiers its read mode reads: the hot tier, the cold tier, or
 * both with {@code UNION ALL}. Plans do not depend on W — a plan is cached and outlives many
 * archival runs — so the split happens when the scan runs: each execution reads W once per table,
 * the cold side returns the rows with {@code from < W} and the hot side those with {@code from >=
 * W}, disjoint by construction since a reading lives in exactly one tier. A side whose range the
 * execution's W excludes reads nothing. Only a {@code from} range that literal predicates make
 * empty removes a side from the plan.
 */
final class TierRouting {
  private TierRouting() {}

  /**
   * What routing decides for a scan before any relation is built.
   *
   * @param spec the scan as the plan fixed it
   * @param range the {@code from} range its literal predicates allow
   * @param hot whether the plan has a hot side
   * @param cold whether the plan has a cold side
   */
  record Decision(ScanSpec spec, FromRange range, boolean hot, boolean cold) {}

  static Decision decide(MeterTableScan scan) {
    PredTranslator translator = new PredTranslator(scan.def, scan.getCluster().getRexBuilder());
    List<Pred> preds = new ArrayList<>();
    for (RexNode f : scan.filters) {
      Optional<Pred> p = translator.translate(f);
      p.ifPresent(preds::add);
    }
    ScanSpec spec = new ScanSpec(scan.def, scan.mode, scan.resolve, preds, scan.projects);
    FromRange range = FromRanges.of(preds, spec.fromColumn(), null);
    boolean readsHot = !scan.mode.kind().coldOnly();
    boolean readsCold = scan.mode.kind() != ReadMode.Kind.OPERATIONAL;
    return new Decision(
        spec, range, readsHot && !scan.coldOnly && !range.isEmpty(), readsCold && !range.isEmpty());
  }

  static RelNode route(MeterTableScan scan) {
    Decision d = decide(scan);
    List<RelNode> tiers = new ArrayList<>();
    if (d.hot()) {
      tiers.add(hot(scan, d.spec(), d.range()));
    }
    if (d.cold()) {
      tiers.add(cold(scan, d.spec(), d.range()));
    }
    if (tiers.isEmpty()) {
      return EnumerableValues.create(scan.getCluster(), scan.getRowType(), ImmutableList.of());
    }
    if (tiers.size() == 1) {
      return tiers.get(0);
    }
    return new EnumerableUnion(scan.getCluster(), tiers.get(0).getTraitSet(), tiers, true);
  }

  /**
   * The hot half of an aggregation, computed by PostgreSQL over the rows the hot scan of {@code d}
   * would return; its row type is {@code rowType} (the aggregate's).
   */
  static RelNode hotAggregate(
      MeterTableScan scan, Decision d, HotAggregate aggregate, RelDataType rowType) {
    HotSource source = new HotSource(scan.runtime, d.spec(), aggregate);
    Map<String, Object> terms = common(scan, d.spec(), d.range());
    terms.put("columns", rowType.getFieldNames());
    terms.put("aggregate", aggregate.describe(d.spec()));
    double rows = Math.max(1, rows(scan) / 10);
    return new MeterScanRel(
        scan.getCluster(),
        rowType,
        "MeterHotAggregate",
        source,
        terms,
        rows,
        scan.runtime,
        d.spec());
  }

  /**
   * The cold half of an aggregation, computed inside the cold scan of {@code d} ({@code
   * description} is the aggregate as plans show it); its row type is {@code rowType}.
   */
  static RelNode coldAggregate(
      MeterTableScan scan,
      Decision d,
      ColdAggregation aggregation,
      String description,
      RelDataType rowType) {
    ColdSource source = new ColdSource(scan.runtime, d.spec(), aggregation);
    Map<String, Object> terms = common(scan, d.spec(), d.range());
    terms.put("columns", rowType.getFieldNames());
    terms.put("aggregate", description);
    double rows = Math.max(1, rows(scan) / 10);
    return new MeterScanRel(
        scan.getCluster(),
        rowType,
        "MeterColdAggregate",
        source,
        terms,
        rows,
        scan.runtime,
        d.spec());
  }

  private static RelNode hot(MeterTableScan scan, ScanSpec spec, FromRange range) {
    HotSource source = new HotSource(scan.runtime, spec);
    return new MeterScanRel(
        scan.getCluster(),
        scan.getRowType(),
        "MeterHotScan",
        source,
        common(scan, spec, range),
        rows(scan),
        scan.runtime,
        spec);
  }

  private static RelNode cold(MeterTableScan scan, ScanSpec spec, FromRange range) {
    ColdSource source = new ColdSource(scan.runtime, spec);
    return new MeterScanRel(
        scan.getCluster(),
        scan.getRowType(),
        "MeterColdScan",
        source,
        common(scan, spec, range),
        rows(scan),
        scan.runtime,
        spec);
  }

  private static Map<String, Object> common(MeterTableScan scan, ScanSpec spec, FromRange range) {
    Map<String, Object> terms = new LinkedHashMap<>();
    terms.put("table", spec.def().name() + (spec.resolve() ? "" : "_versions"));
    terms.put("mode", spec.mode().describe());
    terms.put("range", range);
    terms.put("preds", PredText.describe(spec.preds(), spec.def()));
    terms.put("columns", scan.getRowType().getFieldNames());
    return terms;
  }

  private static double rows(MeterTableScan scan) {
    return scan.estimateRowCount(scan.getCluster().getMetadataQuery());
  }
}
