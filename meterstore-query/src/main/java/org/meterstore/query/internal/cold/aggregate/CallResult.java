package org.meterstore.query.internal.cold.aggregate;

import java.math.BigDecimal;
import org.meterstore.api.table.ColumnType;

/** The final value of one call for one group, as Calcite's internal value. */
final class CallResult {
  private CallResult() {}

  static Object of(CallState s, int g, ColumnType type, int scale) {
    long count = s.count[g];
    BigDecimal big = s.big[g];
    switch (s.function) {
      case COUNT:
        return count;
      case SUM:
      case SUM0:
        if (count == 0) {
          return s.function == ColdAggregation.Function.SUM ? null : BigDecimal.valueOf(0, scale);
        }
        BigDecimal total = BigDecimal.valueOf(s.value[g]);
        if (big != null) {
          total = total.add(big);
        }
        return new BigDecimal(total.toBigIntegerExact(), scale);
      default:
        boolean min = s.function == ColdAggregation.Function.MIN;
        if (big != null) {
          BigDecimal b = new BigDecimal(big.toBigIntegerExact(), scale);
          if (count == 0) {
            return b;
          }
          BigDecimal l = BigDecimal.valueOf(s.value[g], scale);
          return (b.compareTo(l) < 0) == min ? b : l;
        }
        if (count == 0) {
          return null;
        }
        long v = s.value[g];
        switch (type) {
          case TIMESTAMPTZ:
            return Math.floorDiv(v, 1000L);
          case DATE:
            return (int) v;
          default:
            return BigDecimal.valueOf(v, scale);
        }
    }
  }
}
