package org.meterstore;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.meterstore.api.reading.Reading;
import org.meterstore.testing.workload.Workload;

/**
 * The batch a {@link WriteCrashIT} child is killed while appending, cut from the same seeded {@link
 * Workload} in the parent and in every child: the parent writes the original deliveries, archives
 * up to a watermark {@code cut}, and a child appends one of these.
 */
enum CrashBatch {
  /** The first correction delivery: late corrections below {@code cut} and readings at or above. */
  STRADDLING {
    @Override
    List<Reading> of(Workload workload, Instant cut) {
      return corrections(workload).get(0).readings();
    }
  },
  /** Every correction below {@code cut}: a batch of late corrections only. */
  LATE {
    @Override
    List<Reading> of(Workload workload, Instant cut) {
      return corrections(workload).stream()
          .flatMap(d -> d.readings().stream())
          .filter(r -> r.from().isBefore(cut))
          .toList();
    }
  };

  /** Three electricity meters over four days from 2 March 2026, with corrections and repeats. */
  static Workload workload(long seed) {
    return new Workload(3, LocalDate.of(2026, 3, 2), 4, 0, 0.1, 0.1, seed);
  }

  /** The deliveries written before the crash: every original and redelivery. */
  static List<Workload.Delivery> originals(Workload workload) {
    return workload.deliveries().stream().filter(d -> !d.correction()).toList();
  }

  /** This batch of {@code workload}, cut at {@code cut}. */
  abstract List<Reading> of(Workload workload, Instant cut);

  private static List<Workload.Delivery> corrections(Workload workload) {
    return workload.deliveries().stream().filter(Workload.Delivery::correction).toList();
  }
}
