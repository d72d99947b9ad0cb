package org.meterstore.maintenance;

import java.time.Instant;
import org.meterstore.api.privacy.Retention;

/**
 * The § 60 Abs. 6 MsbG sweep as the maintenance loop calls it once per cycle, after every table
 * (DESIGN § 9): erase the subject mappings that {@code retention} says are due at {@code now}. The
 * privacy module provides the implementation; the loop only schedules it and reports its result or
 * failure as the {@value org.meterstore.maintenance.outcome.TableOutcome#RETENTION} row.
 */
@FunctionalInterface
public interface RetentionSweep {
  /**
   * Runs the sweep.
   *
   * @param retention which mappings are due
   * @param reason the legal reason recorded in the erasure trail
   * @param actor who or what erased, recorded in the trail
   * @param now the cycle's instant
   * @return how many subject mappings were erased
   * @throws org.meterstore.api.MeterStoreException when the sweep fails (reported, never thrown out
   *     of the loop)
   */
  long sweep(Retention retention, String reason, String actor, Instant now);
}
