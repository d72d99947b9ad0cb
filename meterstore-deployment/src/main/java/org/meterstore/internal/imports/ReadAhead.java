package org.meterstore.internal.imports;

import java.util.ArrayList;
import java.util.Iterator;
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
 * thread lives only as long as this object (the duration of one import's writing pass): {@link
 * #close} stops and joins it. It holds at most {@value #BLOCKS} blocks of {@value #BLOCK} readings.
 * A failure of the cursor is handed to the caller at the position where it happened, after every
 * reading before it. Not thread-safe: one consumer.
 */
final class ReadAhead implements AutoCloseable {
  static final int BLOCK = 4_096;
  static final int BLOCKS = 4;

  /** The reader's last block: the end of input, or a failure. */
  private record End(RuntimeException failure) {}

  private final BlockingQueue<Object> blocks = new ArrayBlockingQueue<>(BLOCKS);
  private final Thread reader;
  private Iterator<Object[]> current = List.<Object[]>of().iterator();
  private boolean ended;

  /** Reads {@code cursor}, handing out {@code toRow} of each reading. */
  ReadAhead(ImportCursor cursor, Function<StoredReading, Object[]> toRow, String name) {
    this.reader = new Thread(() -> read(cursor, toRow), "meterstore-import-reader " + name);
    reader.setDaemon(true);
    reader.start();
  }

  private void read(ImportCursor cursor, Function<StoredReading, Object[]> toRow) {
    List<Object[]> block = new ArrayList<>(BLOCK);
    try {
      RuntimeException failure = null;
      try {
        for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
          block.add(toRow.apply(r));
          if (block.size() == BLOCK) {
            blocks.put(block);
            block = new ArrayList<>(BLOCK);
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
      if (!block.isEmpty()) {
        blocks.put(block);
      }
      blocks.put(new End(failure));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed by the consumer: nobody waits for more
    }
  }

  /**
   * The next reading's row, or null at the end.
   *
   * @throws MeterStoreException what the cursor threw, at the record where it threw
   */
  Object[] next() {
    while (!current.hasNext()) {
      if (ended) {
        return null;
      }
      Object block;
      try {
        block = blocks.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MeterStoreException(
            ErrorKind.STORAGE, true, "Import interrupted while reading its source", e);
      }
      if (block instanceof End end) {
        ended = true;
        if (end.failure() != null) {
          throw end.failure();
        }
        return null;
      }
      @SuppressWarnings("unchecked")
      List<Object[]> readings = (List<Object[]>) block;
      current = readings.iterator();
    }
    return current.next();
  }

  /** Stops the reader (if it is still reading) and waits for it to end. */
  @Override
  public void close() {
    reader.interrupt();
    blocks.clear();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
