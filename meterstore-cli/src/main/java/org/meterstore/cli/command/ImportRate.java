package org.meterstore.cli.command;

import java.time.Duration;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The text of an import's progress line: readings done of the total, the share, the rate since the
 * import started and the time left at that rate ({@code 1,200,000 / 3,000,000 readings (40 %),
 * 412,000/s, 4 s left}).
 */
final class ImportRate {
  private final LongSupplier nanos;
  private final long started;

  /** Rates from now on, by the JVM's monotonic clock. */
  ImportRate() {
    this(System::nanoTime);
  }

  /** Rates by {@code nanos}, a monotonic clock in nanoseconds. */
  ImportRate(LongSupplier nanos) {
    this.nanos = nanos;
    this.started = nanos.getAsLong();
  }

  /** The line for {@code done} of {@code total} readings. */
  String describe(long done, long total) {
    StringBuilder s =
        new StringBuilder(String.format(Locale.ROOT, "%,d / %,d readings", done, total));
    if (total > 0) {
      s.append(String.format(Locale.ROOT, " (%d %%)", done * 100 / total));
    }
    long elapsed = nanos.getAsLong() - started;
    if (done > 0 && elapsed > 0) {
      double perSecond = done * 1e9 / elapsed;
      s.append(String.format(Locale.ROOT, ", %,d/s", Math.round(perSecond)));
      if (total > done) {
        long left = Math.round((total - done) / perSecond);
        s.append(", ").append(left(Duration.ofSeconds(left))).append(" left");
      }
    }
    return s.toString();
  }

  /** {@code 12 s}, {@code 4 min 10 s}, {@code 2 h 05 min}. */
  static String left(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
  }
}
