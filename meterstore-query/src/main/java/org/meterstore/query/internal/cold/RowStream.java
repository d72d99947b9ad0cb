package org.meterstore.query.internal.cold;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.Executor;
import org.meterstore.query.internal.cold.unit.ScanUnit;
import org.meterstore.query.internal.cold.unit.UnitContext;
import org.meterstore.query.internal.cold.unit.UnitRun;

/**
 * {@link ColdRows} fed by workers on the pool, or by the consuming thread itself when the executor
 * runs work in place (a small read, {@link ReadSize}). Each unit runs a step (about a batch) at a
 * time; a worker that finds the hand-over queue full parks its unit and frees its thread, so a slow
 * consumer never holds pool threads (another scan of the same statement can always progress). At
 * most {@code parallelism} units run at once and at most {@code capacity} chunks wait.
 */
final class RowStream implements ColdRows {
  private final Executor pool;
  private final ColdRequest request;
  private final UnitContext context;
  private final int parallelism;
  private final int capacity;
  private final UnitMetrics metrics;
  private final ArrayDeque<Pending> ready = new ArrayDeque<>();
  private final ArrayDeque<List<Object[]>> chunks = new ArrayDeque<>();
  private int running;
  private Throwable failure;
  private boolean closed;
  private Iterator<Object[]> current = Collections.emptyIterator();

  private static final class Pending {
    final ScanUnit unit;
    UnitRun run;

    Pending(ScanUnit unit) {
      this.unit = unit;
    }
  }

  RowStream(
      Executor pool,
      ColdRequest request,
      UnitContext context,
      List<ScanUnit> units,
      int parallelism,
      UnitMetrics metrics) {
    this.pool = pool;
    this.request = request;
    this.context = context;
    this.parallelism = Math.max(1, parallelism);
    this.capacity = 2 * this.parallelism;
    this.metrics = metrics;
    units.forEach(u -> ready.add(new Pending(u)));
    synchronized (this) {
      pump();
    }
  }

  /** Starts parked or new units while there is room; caller holds the lock. */
  private void pump() {
    while (!closed
        && failure == null
        && running < parallelism
        && !ready.isEmpty()
        && chunks.size() + running < capacity) {
      Pending p = ready.poll();
      running++;
      try {
        pool.execute(() -> work(p));
      } catch (RuntimeException e) {
        running--;
        failure = e;
        ready.addFirst(p);
      }
    }
  }

  private void work(Pending p) {
    RowSink sink = new RowSink(context.columns(), request.columns());
    try {
      if (p.run == null) {
        p.run = p.unit.open(context);
      }
      while (true) {
        synchronized (this) {
          if (closed || failure != null) {
            break;
          }
        }
        boolean more = p.run.step(sink);
        List<Object[]> out = sink.take();
        synchronized (this) {
          if (!out.isEmpty()) {
            chunks.add(out);
            notifyAll();
          }
          if (!more) {
            finish(p);
            running--;
            pump();
            notifyAll();
            return;
          }
          if (chunks.size() >= capacity) {
            ready.addFirst(p);
            running--;
            notifyAll();
            return;
          }
        }
      }
      synchronized (this) {
        finish(p);
        running--;
        notifyAll();
      }
    } catch (Throwable t) {
      synchronized (this) {
        finish(p);
        if (failure == null) {
          failure = t;
        }
        running--;
        notifyAll();
      }
    }
  }

  private void finish(Pending p) {
    if (p.run != null) {
      metrics.record(p.unit, p.run);
      p.run.close();
      p.run = null;
    }
  }

  @Override
  public boolean hasNext() {
    if (current.hasNext()) {
      return true;
    }
    synchronized (this) {
      while (true) {
        if (failure != null) {
          throw ColdExecutor.storage(request, failure);
        }
        if (!chunks.isEmpty()) {
          current = chunks.poll().iterator();
          pump();
          if (current.hasNext()) {
            return true;
          }
          continue;
        }
        if (closed || (ready.isEmpty() && running == 0)) {
          return false;
        }
        pump();
        if (!chunks.isEmpty() || failure != null || (ready.isEmpty() && running == 0)) {
          continue; // the pump ran units on this thread (a small read), or one just ended
        }
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw ColdExecutor.storage(request, e);
        }
      }
    }
  }

  @Override
  public Object[] next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      boolean interrupted = false;
      while (running > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      for (Pending p : ready) {
        finish(p);
      }
      ready.clear();
      chunks.clear();
      current = Collections.emptyIterator();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
