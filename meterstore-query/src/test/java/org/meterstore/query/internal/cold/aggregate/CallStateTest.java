package org.meterstore.query.internal.cold.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.meterstore.api.table.ColumnType;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation.Function;

/** Partial aggregate states: exact sums past a long, SQL nulls, merging partials. */
class CallStateTest {

  @Test
  void aSumPastALongCarriesExactly() {
    CallState s = new CallState(Function.SUM);
    s.ensure(1);
    for (int i = 0; i < 5; i++) {
      s.add(0, Long.MAX_VALUE - i);
    }
    s.add(0, -3);
    BigDecimal expected =
        BigDecimal.valueOf(Long.MAX_VALUE)
            .multiply(BigDecimal.valueOf(5))
            .subtract(BigDecimal.valueOf(0 + 1 + 2 + 3 + 4 + 3))
            .movePointLeft(6);
    assertThat(CallResult.of(s, 0, ColumnType.DECIMAL_18_6, 6)).isEqualTo(expected);
  }

  @Test
  void mergedPartialsOverflowExactlyToo() {
    CallState a = new CallState(Function.SUM0);
    CallState b = new CallState(Function.SUM0);
    a.ensure(1);
    b.ensure(1);
    a.add(0, Long.MAX_VALUE);
    b.add(0, Long.MAX_VALUE);
    b.addBig(0, new BigDecimal("100000000000000000000"));
    a.merge(0, b, 0);
    assertThat(CallResult.of(a, 0, ColumnType.DECIMAL_20_0, 0))
        .isEqualTo(
            BigDecimal.valueOf(Long.MAX_VALUE)
                .multiply(BigDecimal.valueOf(2))
                .add(new BigDecimal("100000000000000000000")));
  }

  @Test
  void noValueIsNullForSumZeroForSum0AndCount() {
    CallState sum = new CallState(Function.SUM);
    CallState sum0 = new CallState(Function.SUM0);
    CallState count = new CallState(Function.COUNT);
    CallState min = new CallState(Function.MIN);
    for (CallState s : new CallState[] {sum, sum0, count, min}) {
      s.ensure(1);
    }
    assertThat(CallResult.of(sum, 0, ColumnType.DECIMAL_18_6, 6)).isNull();
    assertThat(CallResult.of(sum0, 0, ColumnType.DECIMAL_18_6, 6))
        .isEqualTo(new BigDecimal("0.000000"));
    assertThat(CallResult.of(count, 0, null, -1)).isEqualTo(0L);
    assertThat(CallResult.of(min, 0, ColumnType.TIMESTAMPTZ, -1)).isNull();
  }

  @Test
  void minAndMaxOfTimestampsAreMillisAndOfBigDecimalsExact() {
    CallState min = new CallState(Function.MIN);
    min.ensure(1);
    min.add(0, 1_500_999L);
    min.add(0, -1L);
    assertThat(CallResult.of(min, 0, ColumnType.TIMESTAMPTZ, -1)).isEqualTo(-1L); // floor of -1 µs
    CallState max = new CallState(Function.MAX);
    max.ensure(1);
    max.add(0, 7);
    max.addBig(0, new BigDecimal("99999999999999999999"));
    assertThat(CallResult.of(max, 0, ColumnType.DECIMAL_20_0, 0))
        .isEqualTo(new BigDecimal("99999999999999999999"));
  }
}
