package org.meterstore.maintenance.archival;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * A row source read ahead by a worker thread, so that reading the hot partition (the database's
 * query and the row decoding) overlaps with the cold tier's Parquet writing on the run's thread.
 *
 * <p>Bounded: the worker hands rows over in batches through a queue that holds at most one source
 * chunk of rows, so memory holds the source's current chunk, the queue and the writer's own chunk.
 * The source's chunk boundaries travel through the queue too: {@code onChunk} runs on the
 * <em>consuming</em> thread when it reaches a boundary (so a crash test's fault hook still runs on
 * the run's thread, between the rows of two chunks). A failure of the source is rethrown,
 * unchanged, on the consuming thread.
 *
 * <p>Every {@link #iterator()} starts a worker of its own (a retried write starts over) and stops
 * the previous one; {@link #close()} stops and joins every worker, so no thread outlives the
 * archival call that created this. Used by one thread.
 */
final class PrefetchedRows implements Iterable<Object[]>, AutoCloseable {
  /** Rows per hand-off batch. */
  static final int BATCH_ROWS = 1024;

  private static final Object END = new Object();
  private static final long POLL_MILLIS = 100;

  private final Iterable<Object[]> source;
  private final int capacity;
  private final IntConsumer onChunk;
  private final String threadName;
  private final List<Reader> readers = new ArrayList<>();
  private volatile Reader active;

  /** A chunk boundary as it travels through the queue. */
  private record Boundary(int chunk) {}

  /** The source's failure as it travels through the queue. */
  private record Failure(Throwable cause) {}

  /** The worker was stopped; ends it quietly. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super(null, null, false, false);
    }
  }

  /**
   * @param source makes the source given the callback it must call between its chunks (on the
   *     worker thread); called once, here
   * @param chunkRows the source's rows per chunk: the queue holds at most this many rows
   * @param onChunk called on the consuming thread at each chunk boundary, with the chunk's number
   * @param threadName the worker thread's name
   */
  PrefetchedRows(
      Function<IntConsumer, Iterable<Object[]>> source,
      int chunkRows,
      IntConsumer onChunk,
      String threadName) {
    this.onChunk = onChunk;
    this.threadName = threadName;
    this.capacity = Math.max(2, chunkRows / BATCH_ROWS);
    this.source = source.apply(this::boundary);
  }

  @Override
  public Iterator<Object[]> iterator() {
    close();
    Reader reader = new Reader();
    readers.add(reader);
    active = reader;
    reader.thread.start();
    return reader;
  }

  /** Stops every worker and waits for each to end (at most one source query's time). */
  @Override
  public void close() {
    for (Reader r : readers) {
      r.stop();
    }
    readers.clear();
  }

  /** Called by the source on a worker thread: hand over what is batched, then the boundary. */
  private void boundary(int chunk) {
    Reader reader = active;
    if (reader != null && Thread.currentThread() == reader.thread) {
      reader.flush();
      reader.put(new Boundary(chunk));
    }
  }

  /** One worker: reads the source into the queue; the consuming side is its iterator. */
  private final class Reader implements Iterator<Object[]>, Runnable {
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(capacity);
    private final Thread thread;
    private volatile boolean stopped;
    // worker side
    private Object[][] batch = new Object[BATCH_ROWS][];
    private int batched;
    // consuming side
    private Object[][] current;
    private int size;
    private int index;
    private boolean ended;

    Reader() {
      thread = new Thread(this, threadName);
      thread.setDaemon(true);
    }

    @Override
    public void run() {
      try {
        for (Object[] row : source) {
          batch[batched++] = row;
          if (batched == BATCH_ROWS) {
            flush();
          }
        }
        flush();
        put(END);
      } catch (Stopped e) {
        // the consumer is gone
      } catch (Throwable t) { // every failure goes to the consumer, which rethrows it
        if (!stopped) {
          queue.clear();
          try {
            put(new Failure(t));
          } catch (Stopped e) {
            // the consumer is gone
          }
        }
      }
    }

    void flush() {
      if (batched > 0) {
        Object[][] full = batch;
        int n = batched;
        batch = new Object[BATCH_ROWS][];
        batched = 0;
        put(n == BATCH_ROWS ? full : Arrays.copyOf(full, n));
      }
    }

    void put(Object item) {
      try {
        while (!queue.offer(item, POLL_MILLIS, TimeUnit.MILLISECONDS)) {
          if (stopped) {
            throw new Stopped();
          }
        }
      } catch (InterruptedException e) {
        throw new Stopped();
      }
    }

    void stop() {
      stopped = true;
      thread.interrupt();
      boolean interrupted = false;
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      queue.clear();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public boolean hasNext() {
      while (!ended && index == size) {
        Object item = take();
        if (item == END) {
          ended = true;
        } else if (item instanceof Boundary b) {
          onChunk.accept(b.chunk());
        } else if (item instanceof Failure f) {
          ended = true;
          throw rethrown(f.cause());
        } else {
          current = (Object[][]) item;
          size = current.length;
          index = 0;
        }
      }
      return index < size;
    }

    @Override
    public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Object[] row = current[index];
      current[index++] = null;
      return row;
    }

    private Object take() {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new MeterStoreException(
            ErrorKind.STORAGE, "Interrupted while reading rows to archive", e);
      }
    }
  }

  private static RuntimeException rethrown(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new MeterStoreException(ErrorKind.STORAGE, "Cannot read rows to archive: " + t, t);
  }
}
