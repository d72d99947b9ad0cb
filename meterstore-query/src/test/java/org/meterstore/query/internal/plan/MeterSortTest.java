package org.meterstore.query.internal.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.junit.jupiter.api.Test;

/** The order {@link MeterSort} gives is the order of Calcite's own {@code orderBy}. */
class MeterSortTest {
  @Test
  void ordersAsCalciteDoesKeepingEqualKeysInArrivalOrder() {
    Random random = new Random(7);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      // a few sorted runs with ties, as a merge of tiers delivers them
      String obis = random.nextInt(4) == 0 ? null : "b" + i % 2;
      rows.add(new Object[] {(long) ((i % 1_700) / 3), obis, i});
    }
    Comparator<Object[]> byFromThenObisNullsLast =
        Comparator.<Object[], Long>comparing(r -> (Long) r[0])
            .thenComparing(r -> (String) r[1], Comparator.nullsLast(Comparator.naturalOrder()));
    Enumerable<Object[]> source = Linq4j.asEnumerable(rows);
    List<Object[]> ours =
        MeterSort.<Object[], Object[]>orderBy(source, r -> r, byFromThenObisNullsLast).toList();
    List<Object[]> calcite = source.orderBy(r -> r, byFromThenObisNullsLast).toList();
    assertThat(ours).hasSameSizeAs(rows);
    for (int i = 0; i < ours.size(); i++) {
      assertThat(ours.get(i)).as("row %d", i).isSameAs(calcite.get(i));
    }
  }

  @Test
  void ordersByASelectedKeyDescendingOrNaturally() {
    List<Object[]> rows = List.of(new Object[] {3L}, new Object[] {1L}, new Object[] {2L});
    Enumerable<Object[]> source = Linq4j.asEnumerable(rows);
    Enumerable<Object[]> descending =
        MeterSort.<Object[], Long>orderBy(source, r -> (Long) r[0], Comparator.reverseOrder());
    assertThat(descending.select(r -> r[0]).toList()).containsExactly(3L, 2L, 1L);
    Enumerable<Object[]> natural =
        MeterSort.<Object[], Long>orderBy(source, r -> (Long) r[0], null);
    assertThat(natural.select(r -> r[0]).toList()).containsExactly(1L, 2L, 3L);
  }

  @Test
  void readsItsInputOnlyWhenEnumerated() {
    AtomicInteger reads = new AtomicInteger();
    Enumerable<Long> source =
        Linq4j.asEnumerable(List.of(2L, 1L))
            .select(
                v -> {
                  reads.incrementAndGet();
                  return v;
                });
    Enumerable<Long> sorted = MeterSort.orderBy(source, v -> v, null);
    assertThat(reads).hasValue(0);
    assertThat(sorted.toList()).containsExactly(1L, 2L);
    assertThat(sorted.toList()).containsExactly(1L, 2L);
    assertThat(reads).hasValue(4);
  }
}
