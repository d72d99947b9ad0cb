package org.meterstore.cold.scan;

import java.util.List;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;

/**
 * The rows of one row group a reader returns, as ascending, disjoint runs of row indexes, handed
 * out a batch at a time. Every column decoder of the row group reads the same batch of runs, so the
 * columns stay aligned row by row although their pages begin at different rows. A whole row group
 * is one run.
 */
final class RowSpans {
  private final long[] starts;
  private final long[] ends; // exclusive
  private int range;
  private long next;
  private long remaining;

  private long[] batchStarts = new long[4];
  private int[] batchLengths = new int[4];
  private int count;
  private int rows;

  private RowSpans(long[] starts, long[] ends) {
    this.starts = starts;
    this.ends = ends;
    this.next = starts.length == 0 ? 0 : starts[0];
    for (int i = 0; i < starts.length; i++) {
      remaining += ends[i] - starts[i];
    }
  }

  /** Every row of a row group of {@code rowCount} rows. */
  static RowSpans all(long rowCount) {
    return new RowSpans(new long[] {0}, new long[] {rowCount});
  }

  /** The rows of Parquet's {@code ranges} (inclusive bounds). */
  static RowSpans of(RowRanges ranges) {
    List<RowRanges.Range> list = ranges.getRanges();
    long[] starts = new long[list.size()];
    long[] ends = new long[list.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = list.get(i).from;
      ends[i] = list.get(i).to + 1;
    }
    return new RowSpans(starts, ends);
  }

  /** Rows not yet handed out. */
  long remaining() {
    return remaining;
  }

  /** Makes the next batch of at most {@code max} rows (at least one, when any remain). */
  void take(int max) {
    count = 0;
    rows = 0;
    while (rows < max && range < starts.length) {
      int n = (int) Math.min(max - rows, ends[range] - next);
      if (count == batchStarts.length) {
        batchStarts = java.util.Arrays.copyOf(batchStarts, count * 2);
        batchLengths = java.util.Arrays.copyOf(batchLengths, count * 2);
      }
      batchStarts[count] = next;
      batchLengths[count++] = n;
      rows += n;
      next += n;
      if (next == ends[range] && ++range < starts.length) {
        next = starts[range];
      }
    }
    remaining -= rows;
  }

  /** The rows of the current batch. */
  int rows() {
    return rows;
  }

  /** The runs of the current batch. */
  int count() {
    return count;
  }

  /** The first row index (within the row group) of run {@code i} of the current batch. */
  long start(int i) {
    return batchStarts[i];
  }

  /** The rows of run {@code i} of the current batch. */
  int length(int i) {
    return batchLengths[i];
  }
}
