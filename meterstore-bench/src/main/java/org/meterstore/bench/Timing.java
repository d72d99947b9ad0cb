package org.meterstore.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Wall-clock timing with {@code System.nanoTime}, medians, percentiles and heap sampling. */
final class Timing {
  private Timing() {}

  /** Work that is timed; may throw. */
  interface Work<T> {
    T run() throws Exception;
  }

  /** Seconds {@code work} takes once. */
  static double seconds(Work<?> work) throws Exception {
    long started = System.nanoTime();
    work.run();
    return (System.nanoTime() - started) / 1e9;
  }

  /** The median of {@code runs} timings in seconds, after {@code warmUps} untimed runs. */
  static double medianSeconds(int warmUps, int runs, Work<?> work) throws Exception {
    for (int i = 0; i < warmUps; i++) {
      work.run();
    }
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      times.add(seconds(work));
    }
    return percentile(times, 50);
  }

  /** The nearest-rank percentile {@code p} (0..100] of {@code values}. */
  static double percentile(List<Double> values, double p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  /** What one measured side did: its result count, wall time and heap growth. */
  record Measured(long count, double seconds, long heapGrowthBytes) {
    double perSecond() {
      return count / seconds;
    }

    double heapGrowthMiB() {
      return heapGrowthBytes / (1024.0 * 1024.0);
    }
  }

  /**
   * Runs {@code work} (returning a count) while sampling, every 5 ms, the heap still in use after
   * the latest collection of each heap pool; reports the peak above the level before the run. What
   * a side retains is measured, not garbage awaiting collection.
   */
  static Measured withHeap(Work<Long> work) throws Exception {
    System.gc();
    Thread.sleep(200);
    long before = retainedHeap();
    AtomicLong peak = new AtomicLong(before);
    Thread sampler =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(retainedHeap(), Math::max);
                try {
                  Thread.sleep(5);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "bench-heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
    long started = System.nanoTime();
    long count = work.run();
    double seconds = (System.nanoTime() - started) / 1e9;
    sampler.interrupt();
    sampler.join();
    return new Measured(count, seconds, Math.max(0, peak.get() - before));
  }

  private static long retainedHeap() {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
        used += pool.getCollectionUsage().getUsed();
      }
    }
    return used;
  }
}
