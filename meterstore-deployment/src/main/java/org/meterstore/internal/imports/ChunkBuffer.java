package org.meterstore.internal.imports;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.internal.imports.ReadAhead.Block;

/**
 * The writing pass's buffer: the blocks read since the last commit, in the file's order. It answers
 * how many rows lie before an instant and hands them out by looking at each block's least and
 * greatest {@code from}; only a block that straddles the instant is looked at row by row (in a file
 * sorted by time, one or two per question). Not thread-safe.
 */
final class ChunkBuffer {
  private final int fromIndex;
  private final List<Block> blocks = new ArrayList<>();
  private int size;
  private Instant latest;

  /** A buffer of rows whose {@code from} is column {@code fromIndex}. */
  ChunkBuffer(int fromIndex) {
    this.fromIndex = fromIndex;
  }

  void add(Block block) {
    blocks.add(block);
    size += block.rows().size();
    latest = latest == null || block.max().isAfter(latest) ? block.max() : latest;
  }

  /** Rows held. */
  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The latest {@code from} ever added (it survives what was taken). */
  Instant latest() {
    return latest;
  }

  /** How many rows held have a {@code from} before {@code keep}. */
  int countBefore(Instant keep) {
    int count = 0;
    for (Block b : blocks) {
      if (b.max().isBefore(keep)) {
        count += b.rows().size();
      } else if (b.min().isBefore(keep)) {
        for (Object[] row : b.rows()) {
          count += from(row).isBefore(keep) ? 1 : 0;
        }
      }
    }
    return count;
  }

  /**
   * Removes the rows with a {@code from} before {@code keep} and returns them in the file's order;
   * the rest stay, in their order.
   */
  List<Object[]> takeBefore(Instant keep) {
    List<Object[]> ready = new ArrayList<>(size);
    List<Object[]> carried = new ArrayList<>();
    Instant min = null;
    Instant max = null;
    for (Block b : blocks) {
      if (b.max().isBefore(keep)) {
        ready.addAll(b.rows());
        continue;
      }
      for (Object[] row : b.rows()) {
        Instant from = from(row);
        if (from.isBefore(keep)) {
          ready.add(row);
        } else {
          carried.add(row);
          min = min == null || from.isBefore(min) ? from : min;
          max = max == null || from.isAfter(max) ? from : max;
        }
      }
    }
    blocks.clear();
    size = 0;
    if (!carried.isEmpty()) {
      add(new Block(carried, min, max));
    }
    return ready;
  }

  /** Removes every row and returns them in the file's order. */
  List<Object[]> takeAll() {
    List<Object[]> all = new ArrayList<>(size);
    for (Block b : blocks) {
      all.addAll(b.rows());
    }
    blocks.clear();
    size = 0;
    return all;
  }

  private Instant from(Object[] row) {
    return (Instant) row[fromIndex];
  }
}
