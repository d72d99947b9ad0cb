package org.meterstore.query.internal.plan;

import com.google.common.collect.ImmutableList;
import java.time.Instant;
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
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.query.internal.exec.ColdSource;
import org.meterstore.query.internal.exec.FromRange;
import org.meterstore.query.internal.exec.FromRanges;
import org.meterstore.query.internal.exec.HotAggregate;
import org.meterstore.query.internal.exec.HotSource;
import org.meterstore.query.internal.exec.Pred;
import org.meterstore.query.internal.exec.PredText;
import org.meterstore.query.internal.exec.PredTranslator;
import org.meterstore.query.internal.exec.ScanSpec;
import org.meterstore.query.internal.exec.TableState;

/**
 * Routes a {@link MeterTableScan} by the {@code from} range its literal predicates allow (erring
 * wider; parameters count as unbounded here and are re-checked when the scan opens): hot only when
 * the range starts at or above the boundary W, cold only when it ends at or below it, both split at
 * W with {@code UNION ALL} otherwise — disjoint by construction, since a reading lives in exactly
 * one tier. A cold tier that could not be read at planning is not decided here: the cold scan fails
 * when it opens, if the range needs it.
 */
final class TierRouting {
  private TierRouting() {}

  /**
   * What routing decides for a scan before any relation is built.
   *
   * @param spec the scan as the plan fixed it
   * @param range the {@code from} range its literal predicates allow
   * @param partitions the hot partitions to read; empty when the hot tier is not read
   * @param cold whether the cold tier is read
   */
  record Decision(ScanSpec spec, FromRange range, List<PartitionInfo> partitions, boolean cold) {}

  static Decision decide(MeterTableScan scan) {
    TableState state = scan.state;
    PredTranslator translator = new PredTranslator(state.def(), scan.getCluster().getRexBuilder());
    List<Pred> preds = new ArrayList<>();
    for (RexNode f : scan.filters) {
      Optional<Pred> p = translator.translate(f);
      p.ifPresent(preds::add);
    }
    ScanSpec spec = new ScanSpec(state, scan.resolve, preds, scan.projects);
    FromRange range = FromRanges.of(preds, spec.fromColumn(), null);
    List<PartitionInfo> partitions =
        !scan.coldOnly && state.needsHot(range) ? state.partitionsFor(range) : List.of();
    return new Decision(spec, range, partitions, state.needsCold(range));
  }

  static RelNode route(MeterTableScan scan) {
    Decision d = decide(scan);
    List<RelNode> tiers = new ArrayList<>();
    if (!d.partitions().isEmpty()) {
      tiers.add(hot(scan, d.spec(), d.partitions(), d.range()));
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
    HotSource source = new HotSource(scan.query.runtime(), d.spec(), d.partitions(), aggregate);
    Map<String, Object> terms = common(scan, d.spec(), d.range());
    terms.put("columns", rowType.getFieldNames());
    terms.put("partitions", partitionTerm(d.partitions()));
    terms.put("sql", source.sql());
    double rows = Math.max(1, rows(scan) / 10);
    return new MeterScanRel(scan.getCluster(), rowType, "MeterHotAggregate", source, terms, rows);
  }

  private static String partitionTerm(List<PartitionInfo> partitions) {
    return partitions.size()
        + " ["
        + partitions.get(0).name()
        + ".."
        + partitions.get(partitions.size() - 1).name()
        + "]";
  }

  private static RelNode hot(
      MeterTableScan scan, ScanSpec spec, List<PartitionInfo> partitions, FromRange range) {
    HotSource source = new HotSource(scan.query.runtime(), spec, partitions);
    Map<String, Object> terms = common(scan, spec, range);
    terms.put("partitions", partitionTerm(partitions));
    terms.put("sql", source.sql());
    return new MeterScanRel(
        scan.getCluster(), scan.getRowType(), "MeterHotScan", source, terms, rows(scan));
  }

  private static RelNode cold(MeterTableScan scan, ScanSpec spec, FromRange range) {
    ColdSource source = new ColdSource(scan.query.runtime(), spec);
    Map<String, Object> terms = common(scan, spec, range);
    TableState state = spec.state();
    terms.put("snapshot", state.coldFailure() != null ? "unreachable" : state.snapshotId());
    terms.put("filter", source.plannedFilter());
    if (spec.resolve()) {
      terms.put(
          "resolution",
          (source.elided() ? "elided" : "row_number") + " (" + source.elisionReason() + ")");
    }
    return new MeterScanRel(
        scan.getCluster(), scan.getRowType(), "MeterColdScan", source, terms, rows(scan));
  }

  private static Map<String, Object> common(MeterTableScan scan, ScanSpec spec, FromRange range) {
    Map<String, Object> terms = new LinkedHashMap<>();
    TableState state = spec.state();
    terms.put("table", state.def().name() + (spec.resolve() ? "" : "_versions"));
    terms.put("mode", state.mode().describe());
    terms.put("watermark", watermark(state));
    terms.put("range", range);
    terms.put("preds", PredText.describe(spec.preds(), state.def()));
    terms.put("columns", scan.getRowType().getFieldNames());
    return terms;
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

  private static double rows(MeterTableScan scan) {
    return scan.estimateRowCount(scan.getCluster().getMetadataQuery());
  }
}
