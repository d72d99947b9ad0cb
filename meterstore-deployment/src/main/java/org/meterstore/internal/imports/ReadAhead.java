package org.meterstore.internal.imports;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.imports.ImportCursor;
import org.meterstore.internal.concurrent.Handoff;

/**
 * Reads a cursor ahead on a thread of its own while the caller commits what was read before:
 * parsing and validating the next records, and turning each into its row, overlaps with
 * classifying, encoding and committing the current chunk, so an import uses a second core. The
 * reader hands rows over in {@link Block}s that know their earliest and latest {@code from}, so the
 * caller looks at a block, not at each row, and the rows are touched by the thread that made them.
 * The thread lives only as long as this object (the duration of one import's writing pass): {@link
 * #close} stops and joins it. It holds at most {@code blocks} blocks of {@code blockRows} readings.
 * A failure of the cursor is handed to the caller at the position where it happened, after every
 * reading before it. Not thread-safe: one consumer.
 */
final class ReadAhead implements AutoCloseable {
  /** Readings per block at most. */
  static final int BLOCK = 4_096;

  /**
   * Rows read in order, with the least and the greatest {@code from} among them.
   *
   * @param rows the rows, in the cursor's order; never empty
   */
  record Block(List<Object[]> rows, Instant min, Instant max) {}

  private final Handoff<Block> blocks;

  /**
   * Reads {@code cursor}, handing out {@code toRow} of each reading in blocks of {@code blockRows}
   * (at most {@value #BLOCK}), holding at most {@code blocks} of them; {@code fromIndex} is the
   * row's {@code from} column.
   */
  ReadAhead(
      ImportCursor cursor,
      Function<StoredReading, Object[]> toRow,
      int fromIndex,
      int blockRows,
      int blocks,
      String name) {
    int size = Math.max(1, Math.min(BLOCK, blockRows));
    this.blocks =
        new Handoff<>(
            "meterstore-import-reader " + name,
            blocks,
            sink -> read(cursor, toRow, fromIndex, size, sink));
  }

  private static void read(
      ImportCursor cursor,
      Function<StoredReading, Object[]> toRow,
      int fromIndex,
      int size,
      Handoff.Sink<Block> sink)
      throws InterruptedException {
    List<Object[]> rows = new ArrayList<>(size);
    Instant min = null;
    Instant max = null;
    try {
      for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
        Object[] row = toRow.apply(r);
        Instant from = (Instant) row[fromIndex];
        min = min == null || from.isBefore(min) ? from : min;
        max = max == null || from.isAfter(max) ? from : max;
        rows.add(row);
        if (rows.size() == size) {
          sink.put(new Block(rows, min, max));
          rows = new ArrayList<>(size);
          min = null;
          max = null;
        }
      }
    } catch (RuntimeException | Error e) {
      if (!rows.isEmpty()) {
        sink.put(new Block(rows, min, max)); // the rows before the failure first
      }
      throw e;
    }
    if (!rows.isEmpty()) {
      sink.put(new Block(rows, min, max));
    }
  }

  /**
   * The next block of rows, or null at the end.
   *
   * @throws org.meterstore.api.MeterStoreException what the cursor threw, after the blocks of every
   *     reading before it
   */
  Block next() {
    return blocks.next();
  }

  /** Stops the reader (if it is still reading) and waits for it to end. */
  @Override
  public void close() {
    blocks.close();
  }
}
