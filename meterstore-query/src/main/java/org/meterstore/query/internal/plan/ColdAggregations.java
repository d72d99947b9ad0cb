package org.meterstore.query.internal.plan;

import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.hot.HotAggregate;

/**
 * The cold executor's form of an aggregation the hot tier computes: the same keys and calls, so the
 * two partial results roll up into one final aggregate. Both accept only what they compute exactly
 * as Calcite would.
 */
final class ColdAggregations {
  private ColdAggregations() {}

  /** {@code hot} as a cold aggregation over {@code table}, or null when the executor has none. */
  static ColdAggregation of(HotAggregate hot, TableDefinition table) {
    List<ColdAggregation.Key> keys = new ArrayList<>();
    for (HotAggregate.Key k : hot.groups()) {
      keys.add(key(k));
    }
    List<ColdAggregation.Call> calls = new ArrayList<>();
    for (HotAggregate.Call c : hot.calls()) {
      calls.add(new ColdAggregation.Call(function(c.kind()), c.arg()));
    }
    ColdAggregation cold = new ColdAggregation(keys, calls);
    return cold.supportedOn(table) ? cold : null;
  }

  private static ColdAggregation.Key key(HotAggregate.Key k) {
    HotAggregate.KeyFunction f = k.function();
    if (f == HotAggregate.KeyFunction.NONE) {
      return ColdAggregation.Key.plain(k.column());
    }
    ColdAggregation.TimeUnit unit =
        ColdAggregation.TimeUnit.valueOf(f.unit.toUpperCase(java.util.Locale.ROOT));
    return new ColdAggregation.Key(
        k.column(),
        f.extract ? ColdAggregation.KeyFunction.EXTRACT : ColdAggregation.KeyFunction.FLOOR,
        unit);
  }

  private static ColdAggregation.Function function(HotAggregate.Kind kind) {
    switch (kind) {
      case SUM:
        return ColdAggregation.Function.SUM;
      case SUM0:
        return ColdAggregation.Function.SUM0;
      case COUNT:
        return ColdAggregation.Function.COUNT;
      case MIN:
        return ColdAggregation.Function.MIN;
      default:
        return ColdAggregation.Function.MAX;
    }
  }
}
