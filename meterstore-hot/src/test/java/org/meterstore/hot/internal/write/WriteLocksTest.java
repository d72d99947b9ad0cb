package org.meterstore.hot.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;

class WriteLocksTest {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final WriteLocks LOCKS =
      new WriteLocks("meterstore", "lastgang", CrossingSpans.planSettings(true));
  private static final String V1 = "20260303000000";

  @Test
  void locksEachMarketLocationOnceInAscendingKeyOrderUnderASharedTableLock() {
    List<Reading> batch = new ArrayList<>();
    for (int meter = 9; meter >= 0; meter--) {
      batch.addAll(Fixtures.day(meter, Fixtures.DAY, V1).subList(0, 3));
    }
    WriteLocks.Plan plan = LOCKS.plan(rows(batch));
    assertThat(plan.exclusive()).isFalse();
    assertThat(plan.locations()).isSorted().doesNotHaveDuplicates().hasSize(10);
    List<Reading> reversedBatch = new ArrayList<>(batch);
    Collections.reverse(reversedBatch);
    Integer[] reversed = LOCKS.plan(rows(reversedBatch)).locations();
    assertThat(reversed).containsExactly(plan.locations());
  }

  @Test
  void aBatchOfMoreThan64MarketLocationsTakesTheTableLockAlone() {
    assertThat(LOCKS.plan(rows(meters(WriteLocks.MAX_LOCATIONS))).exclusive()).isFalse();
    WriteLocks.Plan wide = LOCKS.plan(rows(meters(WriteLocks.MAX_LOCATIONS + 1)));
    assertThat(wide.exclusive()).isTrue();
    assertThat(wide.locations()).isEmpty();
  }

  @Test
  void aBatchWithASpanCrossingAPartitionBoundTakesTheTableLockAlone() {
    Instant from = Fixtures.DAY.plus(Duration.ofHours(23));
    Reading crossing =
        Fixtures.quarterHour(1, from, "1", V1)
            .resolution(null)
            .interval(from, from.plus(Duration.ofHours(2)))
            .build();
    WriteLocks.Plan plan = LOCKS.plan(rows(List.of(crossing)));
    assertThat(plan.exclusive()).isTrue();
    assertThat(plan.locations()).isEmpty();
  }

  @Test
  void keysAreSixteenBitsAndDependOnSchemaTableAndLocation() {
    String malo = Fixtures.malo(1);
    int key = WriteLocks.locationKey("meterstore", "lastgang", malo);
    assertThat(key).isBetween(0, 0xffff);
    assertThat(WriteLocks.locationKey("meterstore", "lastgang", malo)).isEqualTo(key);
    List<Integer> others =
        List.of(
            WriteLocks.locationKey("other", "lastgang", malo),
            WriteLocks.locationKey("meterstore", "tageswerte", malo),
            WriteLocks.locationKey("meterstore", "lastgang", Fixtures.malo(2)));
    assertThat(others).allSatisfy(k -> assertThat(k).isBetween(0, 0xffff)).doesNotContain(key);
  }

  private static List<Reading> meters(int count) {
    return IntStream.range(0, count)
        .mapToObj(m -> Fixtures.quarterHour(m, Fixtures.DAY, "1", V1).build())
        .toList();
  }

  private static List<BatchRow> rows(List<Reading> readings) {
    return new BatchPreparer(new TableLayout(TABLE)).prepare(readings, Fixtures.NOW, null);
  }
}
