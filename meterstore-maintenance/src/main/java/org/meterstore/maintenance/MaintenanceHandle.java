package org.meterstore.maintenance;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running maintenance loop, from {@link MaintenanceBuilder#spawn()}. The handle owns the loop:
 * {@link #close()} stops it after the cycle in flight, so a loop cannot outlive the code that
 * watches it. Thread-safe.
 */
public final class MaintenanceHandle implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceHandle.class);

  private final ScheduledExecutorService executor;
  private final MaintenanceCycle cycle;
  private final InstantSource clock;
  private final AtomicReference<MaintenanceOutcome> last = new AtomicReference<>();
  private final AtomicLong cycles = new AtomicLong();

  MaintenanceHandle(MaintenanceCycle cycle, Duration interval, InstantSource clock) {
    this.cycle = cycle;
    this.clock = clock;
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "meterstore-maintenance");
              t.setDaemon(true);
              return t;
            });
    executor.scheduleWithFixedDelay(this::runCycle, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void runCycle() {
    try {
      MaintenanceOutcome outcome = cycle.run(clock.instant());
      last.set(outcome);
      cycles.incrementAndGet();
    } catch (RuntimeException e) {
      // a cycle reports table failures as rows; this is a bug or a broken clock: keep the schedule
      LOG.error("Maintenance cycle failed unexpectedly: {}", e.toString(), e);
    }
  }

  /** The outcome of the last completed cycle, if one completed. */
  public Optional<MaintenanceOutcome> lastOutcome() {
    return Optional.ofNullable(last.get());
  }

  /** How many cycles completed since {@code spawn()}. */
  public long cyclesCompleted() {
    return cycles.get();
  }

  /**
   * Stops the loop: no cycle starts after this call, and it returns once the cycle in flight (if
   * any) has ended. Idempotent. If the calling thread is interrupted while waiting, it returns at
   * once with its interrupt flag set; the cycle in flight still ends on its own.
   */
  @Override
  public void close() {
    executor.shutdown();
    try {
      while (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.info("Waiting for the maintenance cycle in flight to end");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
