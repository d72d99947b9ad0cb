package org.meterstore.internal.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.meterstore.internal.imports.ReadAhead.Block;

/** The writing pass's buffer against a row-by-row reference, on blocks in and out of order. */
class ChunkBufferTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private static Instant at(int minutes) {
    return START.plus(Duration.ofMinutes(minutes));
  }

  private static Block block(List<Object[]> rows) {
    Instant min = null;
    Instant max = null;
    for (Object[] r : rows) {
      Instant from = (Instant) r[1];
      min = min == null || from.isBefore(min) ? from : min;
      max = max == null || from.isAfter(max) ? from : max;
    }
    return new Block(rows, min, max);
  }

  @Test
  void countsAndTakesWhatARowByRowSplitWould() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      ChunkBuffer buffer = new ChunkBuffer(1);
      List<Object[]> all = new ArrayList<>();
      int blocks = 1 + random.nextInt(6);
      int base = 0;
      for (int b = 0; b < blocks; b++) {
        List<Object[]> rows = new ArrayList<>();
        int n = 1 + random.nextInt(20);
        for (int i = 0; i < n; i++) {
          // mostly rising, sometimes a late row from before
          int minute =
              random.nextInt(10) == 0 ? random.nextInt(base + 1) : base + random.nextInt(30);
          base = Math.max(base, minute);
          rows.add(new Object[] {all.size() + rows.size(), at(minute)});
        }
        all.addAll(rows);
        buffer.add(block(rows));
      }
      Instant keep = at(random.nextInt(base + 2));
      List<Object[]> before = all.stream().filter(r -> ((Instant) r[1]).isBefore(keep)).toList();
      List<Object[]> after = all.stream().filter(r -> !((Instant) r[1]).isBefore(keep)).toList();
      assertThat(buffer.size()).isEqualTo(all.size());
      assertThat(buffer.countBefore(keep)).isEqualTo(before.size());
      Instant latest = buffer.latest();
      assertThat(buffer.takeBefore(keep)).containsExactlyElementsOf(before);
      assertThat(buffer.size()).isEqualTo(after.size());
      assertThat(buffer.latest()).isEqualTo(latest);
      assertThat(buffer.countBefore(keep)).isZero();
      assertThat(buffer.takeAll()).containsExactlyElementsOf(after);
      assertThat(buffer.isEmpty()).isTrue();
    }
  }
}
