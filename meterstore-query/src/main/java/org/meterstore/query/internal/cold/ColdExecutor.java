package org.meterstore.query.internal.cold;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.scan.ColumnBatchReader;
import org.meterstore.query.internal.cold.aggregate.ColdAggregation;
import org.meterstore.query.internal.cold.aggregate.PartialAggregate;
import org.meterstore.query.internal.cold.batch.ScanColumns;
import org.meterstore.query.internal.cold.filter.ColdPred;
import org.meterstore.query.internal.cold.unit.ScanPlanner;
import org.meterstore.query.internal.cold.unit.ScanUnit;
import org.meterstore.query.internal.cold.unit.UnitContext;
import org.meterstore.query.internal.cold.unit.UnitRun;

/**
 * Executes cold scans on a bounded pool: the files of one request are read in parallel, column
 * batch by column batch, and either streamed as rows ({@link #rows}) or aggregated inside the scan
 * ({@link #aggregate}). Versions are resolved per month where file statistics cannot rule a second
 * version out ({@link ScanPlanner}); the rows read are recorded as {@code
 * meterstore.query.cold.rows} by path and resolution.
 *
 * <p>The pool's threads ({@code meterstore-query-cold-N}, daemon) start with the first scan, at
 * most {@code threads} of them. {@link #aggregate} returns once every worker of its request has
 * ended; {@link ColdRows#close()} likewise. A failure of one worker stops the others and surfaces
 * as {@link MeterStoreException} {@code STORAGE} (retryable). Thread-safe: scans may run
 * concurrently. Workers are made when work comes and end after 30 idle seconds. {@link #close()}
 * refuses new scans, waits for running work to end and leaves no thread behind.
 */
public final class ColdExecutor implements AutoCloseable {
  private static final AtomicInteger THREAD_IDS = new AtomicInteger();

  /** How long an idle worker waits for more work before it ends. */
  private static final java.time.Duration IDLE = java.time.Duration.ofSeconds(30);

  /** Reads of at most this many bytes of files run on the querying thread unless told otherwise. */
  public static final long DEFAULT_INLINE_READ_BYTES = 8L * 1024 * 1024;

  /**
   * How an engine reads its cold tier.
   *
   * @param threads the most files read at once on the pool, at least 1
   * @param inlineBytes reads of at most this many bytes (or of one location, or one unit) run on
   *     the querying thread; 0 sends every read to the pool
   */
  public record Settings(int threads, long inlineBytes) {}

  private final int threads;
  private final long inlineBytes;
  private final ColdMetrics metrics;
  private final ThreadPoolExecutor pool;
  private final java.util.Set<Thread> workers = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * @param threads the most files read at once, at least 1 (the engine's default: available
   *     processors)
   * @param metrics where the rows read are recorded
   */
  public ColdExecutor(int threads, ColdMetrics metrics) {
    this(threads, DEFAULT_INLINE_READ_BYTES, metrics);
  }

  /**
   * @param threads the most files read at once on the pool, at least 1
   * @param inlineBytes reads of at most this many bytes of files, of one location or of one unit
   *     run on the querying thread ({@link ReadSize}); 0 sends every read to the pool
   * @param metrics where the rows read are recorded
   */
  public ColdExecutor(int threads, long inlineBytes, ColdMetrics metrics) {
    this.inlineBytes = inlineBytes;
    if (threads < 1) {
      throw new IllegalArgumentException("Invalid threads: " + threads + " (at least 1)");
    }
    this.threads = threads;
    this.metrics = metrics;
    this.pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            IDLE.toSeconds(),
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "meterstore-query-cold-" + THREAD_IDS.incrementAndGet());
              t.setDaemon(true);
              // a worker stays listed until it has exited, so close() can join it; a worker that
              // removed itself in its last finally would still be alive for a moment after that
              workers.removeIf(w -> !w.isAlive());
              workers.add(t);
              return t;
            });
    // an engine that stops querying keeps no thread
    pool.allowCoreThreadTimeOut(true);
  }

  /** The rows of {@code request}, streamed; close them. */
  public ColdRows rows(ColdRequest request) {
    UnitContext context = context(request, new BitSet());
    List<ScanUnit> units = plan(request);
    UnitMetrics unitMetrics = new UnitMetrics(metrics, request.table().name());
    if (ReadSize.small(request, units, inlineBytes)) {
      return new RowStream(Runnable::run, request, context, units, 1, unitMetrics);
    }
    return new RowStream(pool, request, context, units, threads, unitMetrics);
  }

  /**
   * The partial aggregate of {@code request}'s rows (see {@link ColdAggregation} for the values).
   *
   * @throws IllegalArgumentException when {@code aggregation} is not {@link
   *     ColdAggregation#supportedOn supported} on the table
   * @throws MeterStoreException {@code STORAGE} when the cold tier cannot be read
   */
  public List<Object[]> aggregate(ColdRequest request, ColdAggregation aggregation) {
    if (!aggregation.supportedOn(request.table())) {
      throw new IllegalArgumentException(
          "Invalid aggregation: "
              + aggregation
              + " (not supported on "
              + request.table().name()
              + ")");
    }
    BitSet needed = new BitSet();
    aggregation.keys().forEach(k -> needed.set(k.column()));
    aggregation.calls().stream().filter(c -> c.column() >= 0).forEach(c -> needed.set(c.column()));
    UnitContext context = context(request, needed);
    List<ScanUnit> units = plan(request);
    UnitMetrics unitMetrics = new UnitMetrics(metrics, request.table().name());
    AtomicBoolean cancelled = new AtomicBoolean();
    if (ReadSize.small(request, units, inlineBytes)) {
      PartialAggregate total = new PartialAggregate(aggregation, context.columns());
      try {
        for (ScanUnit unit : units) {
          total.merge(aggregateUnit(unit, context, aggregation, cancelled, unitMetrics));
        }
      } catch (RuntimeException e) {
        throw storage(request, e);
      }
      return total.result();
    }
    List<Future<PartialAggregate>> futures = new ArrayList<>();
    try {
      for (ScanUnit unit : units) {
        futures.add(
            pool.submit(() -> aggregateUnit(unit, context, aggregation, cancelled, unitMetrics)));
      }
    } catch (RuntimeException e) {
      cancelled.set(true);
      join(futures);
      throw storage(request, e);
    }
    PartialAggregate total = new PartialAggregate(aggregation, context.columns());
    Throwable failure = null;
    for (Future<PartialAggregate> f : futures) {
      try {
        PartialAggregate part = f.get();
        if (failure == null) {
          total.merge(part);
        }
      } catch (ExecutionException e) {
        failure = failure == null ? e.getCause() : failure;
        cancelled.set(true);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = failure == null ? e : failure;
        cancelled.set(true);
        join(futures);
        break;
      }
    }
    if (failure != null) {
      throw storage(request, failure);
    }
    return total.result();
  }

  private static PartialAggregate aggregateUnit(
      ScanUnit unit,
      UnitContext context,
      ColdAggregation aggregation,
      AtomicBoolean cancelled,
      UnitMetrics metrics) {
    PartialAggregate partial = new PartialAggregate(aggregation, context.columns());
    if (cancelled.get()) {
      return partial;
    }
    try (UnitRun run = unit.open(context)) {
      try {
        while (!cancelled.get() && run.step(partial)) {
          // one batch per step
        }
      } catch (RuntimeException e) {
        cancelled.set(true);
        throw e;
      } finally {
        metrics.record(unit, run);
      }
    }
    return partial;
  }

  /** Waits for every future, ignoring their outcome (interrupts are kept for the caller). */
  private static void join(List<? extends Future<?>> futures) {
    boolean interrupted = Thread.interrupted();
    for (Future<?> f : futures) {
      while (true) {
        try {
          f.get();
          break;
        } catch (ExecutionException | java.util.concurrent.CancellationException e) {
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private static List<ScanUnit> plan(ColdRequest request) {
    try {
      return ScanPlanner.plan(request.snapshot(), request.filter(), request.resolve());
    } catch (RuntimeException e) {
      throw storage(request, e);
    }
  }

  private static UnitContext context(ColdRequest request, BitSet extra) {
    BitSet needed = (BitSet) extra.clone();
    for (int c : request.columns()) {
      needed.set(c);
    }
    for (ColdPred p : request.before()) {
      needed.or(p.columns());
    }
    for (ColdPred p : request.after()) {
      needed.or(p.columns());
    }
    ScanColumns columns = new ScanColumns(request.table(), needed, request.resolve());
    return new UnitContext(
        request.snapshot(),
        request.before(),
        request.after(),
        columns,
        ColumnBatchReader.DEFAULT_BATCH_ROWS);
  }

  /** A failure of a cold scan as the error callers see: storage, retryable, naming the table. */
  static MeterStoreException storage(ColdRequest request, Throwable e) {
    if (e instanceof MeterStoreException m) {
      return m;
    }
    return new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot read the cold tier of table " + request.table().name() + ": " + e,
        e);
  }

  /** Refuses new scans and waits for running ones to end; no pool thread is left afterwards. */
  @Override
  public void close() {
    pool.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (pool.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
        pool.shutdownNow();
      }
    }
    // a terminated pool's last workers may still be exiting: wait until they are gone
    for (Thread t : workers) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    workers.clear();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
