package org.meterstore.cold.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a chunk is cut for encoding on several threads: between MaLos, never below a slice. */
class SlicedWriteTest {
  private static List<Object[]> rows(int malos, int rowsEach) {
    List<Object[]> rows = new ArrayList<>();
    for (int m = 0; m < malos; m++) {
      String malo = String.format("%011d", m); // one object per MaLo, as after a parse cache
      for (int i = 0; i < rowsEach; i++) {
        rows.add(new Object[] {malo, i});
      }
    }
    return rows;
  }

  @Test
  void aChunkIsCutIntoEqualSlicesBetweenTwoMalos() {
    List<Object[]> rows = rows(1_000, 96);
    List<List<Object[]>> slices = SlicedWrite.slices(rows, 0, 2);
    assertThat(slices).hasSize(2);
    assertThat(slices.get(0).size() + slices.get(1).size()).isEqualTo(rows.size());
    assertThat(slices.get(0)).hasSize(500 * 96);
    Object lastOfFirst = slices.get(0).get(slices.get(0).size() - 1)[0];
    assertThat(slices.get(1).get(0)[0]).isNotEqualTo(lastOfFirst);
  }

  @Test
  void aCutInsideAMaloMovesToItsEnd() {
    List<Object[]> rows = rows(3, 20_000); // halfway lies inside the second MaLo
    List<List<Object[]>> slices = SlicedWrite.slices(rows, 0, 2);
    assertThat(slices).hasSize(2);
    assertThat(slices.get(0)).hasSize(40_000);
    assertThat(slices.get(1)).hasSize(20_000);
  }

  @Test
  void aSmallChunkOrOneMaloStaysOneSlice() {
    assertThat(SlicedWrite.slices(rows(10, 96), 0, 4)).hasSize(1);
    assertThat(SlicedWrite.slices(rows(1, 100_000), 0, 4)).hasSize(1);
    List<List<Object[]>> four = SlicedWrite.slices(rows(1_000, 96), 0, 4);
    assertThat(four).hasSize(4);
    assertThat(four).allSatisfy(s -> assertThat(s.size()).isGreaterThanOrEqualTo(16_384));
  }
}
