package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.MeterStoreException;

class ContentDigestTest {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");

  private static Object[] row(String value) {
    Object[] row = new Object[TABLE.columns().size()];
    row[6] = new BigDecimal(value);
    return row;
  }

  @Test
  void countsRowsAndSumsValuesExactly() {
    ContentDigest d =
        ContentDigest.of(TABLE, List.of(row("0.1"), row("0.2"), row("-1.000001")).iterator());
    assertThat(d.rowCount()).isEqualTo(3);
    assertThat(d.valueSum()).isEqualByComparingTo("-0.700001");
    assertThat(d.toSummaryValue()).isEqualTo("rows=3;value-sum=-0.700001");
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void theSummaryFormRoundTrips(long seed) {
    Random random = new Random(seed);
    ContentDigest d =
        new ContentDigest(random.nextInt(1_000_000), BigDecimal.valueOf(random.nextLong(), 6));
    assertThat(ContentDigest.parse(d.toSummaryValue())).isEqualTo(d);
  }

  @Test
  void refusesAnotherForm() {
    assertThatThrownBy(() -> ContentDigest.parse("rows=1"))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("rows=<n>;value-sum=<decimal>");
    assertThat(ContentDigest.of(TABLE, List.<Object[]>of().iterator()))
        .isEqualTo(ContentDigest.EMPTY);
  }
}
