package org.meterstore.internal.imports;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Function;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.imports.ImportCursor;

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

  /** The reader's last item: the end of input, or a failure. */
  private record End(RuntimeException failure) {}

  private final BlockingQueue<Object> queue;
  private final Thread reader;
  private boolean ended;

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
    this.queue = new ArrayBlockingQueue<>(blocks);
    int size = Math.max(1, Math.min(BLOCK, blockRows));
    this.reader =
        new Thread(() -> read(cursor, toRow, fromIndex, size), "meterstore-import-reader " + name);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(
      ImportCursor cursor, Function<StoredReading, Object[]> toRow, int fromIndex, int size) {
    List<Object[]> rows = new ArrayList<>(size);
    Instant min = null;
    Instant max = null;
    try {
      RuntimeException failure = null;
      try {
        for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
          Object[] row = toRow.apply(r);
          Instant from = (Instant) row[fromIndex];
          min = min == null || from.isBefore(min) ? from : min;
          max = max == null || from.isAfter(max) ? from : max;
          rows.add(row);
          if (rows.size() == size) {
            queue.put(new Block(rows, min, max));
            rows = new ArrayList<>(size);
            min = null;
            max = null;
          }
        }
      } catch (RuntimeException e) {
        failure = e; // handed over after the readings before it
      } catch (Error e) {
        // the consumer must not wait for a block that never comes
        failure =
            new MeterStoreException(
                ErrorKind.STORAGE, false, "Import's reader thread failed: " + e, e);
      }
      if (!rows.isEmpty()) {
        queue.put(new Block(rows, min, max));
      }
      queue.put(new End(failure));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed by the consumer: nobody waits for more
    }
  }

  /**
   * The next block of rows, or null at the end.
   *
   * @throws MeterStoreException what the cursor threw, after the blocks of every reading before it
   */
  Block next() {
    if (ended) {
      return null;
    }
    Object item;
    try {
      item = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterStoreException(
          ErrorKind.STORAGE, true, "Import interrupted while reading its source", e);
    }
    if (item instanceof End end) {
      ended = true;
      if (end.failure() != null) {
        throw end.failure();
      }
      return null;
    }
    return (Block) item;
  }

  /** Stops the reader (if it is still reading) and waits for it to end. */
  @Override
  public void close() {
    reader.interrupt();
    queue.clear();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
