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
    return percentile(samples(warmUps, runs, work), 50);
  }

  /** {@code runs} timings in seconds, in run order, after {@code warmUps} untimed runs. */
  static List<Double> samples(int warmUps, int runs, Work<?> work) throws Exception {
    for (int i = 0; i < warmUps; i++) {
      work.run();
    }
    List<Double> times = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      times.add(seconds(work));
    }
    return times;
  }

  /** The nearest-rank percentile {@code p} (0..100] of {@code values}. */
  static double percentile(List<Double> values, double p) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
  }

  /**
   * What one measured side did: its result count, wall time, heap growth, the CPU it and the
   * database used, and the system load average before and after it.
   */
  record Measured(
      long count,
      double seconds,
      long heapGrowthBytes,
      CpuClock.Usage cpu,
      double loadBefore,
      double loadAfter) {
    double perSecond() {
      return count / seconds;
    }

    double heapGrowthMiB() {
      return heapGrowthBytes / (1024.0 * 1024.0);
    }

    /** This and a later {@code other} as one measurement: sums, the larger heap growth. */
    Measured plus(Measured other) {
      return new Measured(
          count + other.count,
          seconds + other.seconds,
          Math.max(heapGrowthBytes, other.heapGrowthBytes),
          cpu.plus(other.cpu),
          loadBefore,
          other.loadAfter);
    }

    /** JVM CPU microseconds per counted item. */
    double jvmMicrosPerItem() {
      return cpu.jvm() * 1e6 / count;
    }

    /** PostgreSQL CPU microseconds per counted item. */
    double postgresMicrosPerItem() {
      return cpu.postgres() * 1e6 / count;
    }
  }

  /**
   * Runs {@code work} (returning a count) while sampling, every 5 ms, the heap still in use after
   * the latest collection of each heap pool; reports the peak above the level before the run. What
   * a side retains is measured, not garbage awaiting collection. Also reads {@code cpu} and the
   * system load average before and after.
   */
  static Measured measure(CpuClock cpu, Work<Long> work) throws Exception {
    System.gc();
    Thread.sleep(200);
    long before = retainedHeap();
    AtomicLong peak = new AtomicLong(before);
    Thread sampler = new Thread(() -> sampleHeap(peak), "bench-heap-sampler");
    sampler.setDaemon(true);
    double loadBefore = loadAverage();
    CpuClock.Usage cpuBefore = cpu.read();
    sampler.start();
    long started = System.nanoTime();
    long count = work.run();
    double seconds = (System.nanoTime() - started) / 1e9;
    CpuClock.Usage used = cpu.read().since(cpuBefore);
    sampler.interrupt();
    sampler.join();
    long growth = Math.max(0, peak.get() - before);
    return new Measured(count, seconds, growth, used, loadBefore, loadAverage());
  }

  private static void sampleHeap(AtomicLong peak) {
    while (!Thread.currentThread().isInterrupted()) {
      peak.accumulateAndGet(retainedHeap(), Math::max);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
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
