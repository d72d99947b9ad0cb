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
import org.apache.calcite.rex.RexNode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.query.internal.exec.ColdSource;
import org.meterstore.query.internal.exec.FromRange;
import org.meterstore.query.internal.exec.FromRanges;
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

  static RelNode route(MeterTableScan scan) {
    TableState state = scan.state;
    PredTranslator translator = new PredTranslator(state.def(), scan.getCluster().getRexBuilder());
    List<Pred> preds = new ArrayList<>();
    for (RexNode f : scan.filters) {
      Optional<Pred> p = translator.translate(f);
      p.ifPresent(preds::add);
    }
    ScanSpec spec = new ScanSpec(state, scan.resolve, preds, scan.projects);
    FromRange range = FromRanges.of(preds, spec.fromColumn(), null);
    List<RelNode> tiers = new ArrayList<>();
    if (state.needsHot(range)) {
      List<PartitionInfo> partitions = state.partitionsFor(range);
      if (!partitions.isEmpty()) {
        tiers.add(hot(scan, spec, partitions, range));
      }
    }
    if (state.needsCold(range)) {
      tiers.add(cold(scan, spec, range));
    }
    if (tiers.isEmpty()) {
      return EnumerableValues.create(scan.getCluster(), scan.getRowType(), ImmutableList.of());
    }
    if (tiers.size() == 1) {
      return tiers.get(0);
    }
    return new EnumerableUnion(scan.getCluster(), tiers.get(0).getTraitSet(), tiers, true);
  }

  private static RelNode hot(
      MeterTableScan scan, ScanSpec spec, List<PartitionInfo> partitions, FromRange range) {
    HotSource source = new HotSource(scan.query.runtime(), spec, partitions);
    Map<String, Object> terms = common(scan, spec, range);
    terms.put(
        "partitions",
        partitions.size()
            + " ["
            + partitions.get(0).name()
            + ".."
            + partitions.get(partitions.size() - 1).name()
            + "]");
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
