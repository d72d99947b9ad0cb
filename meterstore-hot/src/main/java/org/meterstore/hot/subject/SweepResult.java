package org.meterstore.hot.subject;

import java.time.Year;
import java.util.Optional;

/**
 * What one {@link Subjects#sweep} call did.
 *
 * @param dueThrough the newest collection year due at the sweep's {@code now}; every older year was
 *     due too. Empty when nothing was due, in which case the sweep ran no statement.
 * @param erased mappings (person × collection year) this call deleted
 * @param heldKept due mappings left in place because their person is under a legal hold, counted
 *     after the last batch
 * @param batches batches that deleted at least one mapping, each its own transaction with its own
 *     trail entry
 * @param complete false when the call stopped at its batch limit and due mappings may remain; the
 *     next sweep continues where this one stopped
 */
public record SweepResult(
    Optional<Year> dueThrough, long erased, long heldKept, int batches, boolean complete) {

  /** Checks the counts. */
  public SweepResult {
    if (dueThrough == null || erased < 0 || heldKept < 0 || batches < 0) {
      throw new IllegalArgumentException(
          "Invalid sweep result: due "
              + dueThrough
              + ", erased "
              + erased
              + ", held "
              + heldKept
              + ", batches "
              + batches
              + " (counts are zero or more)");
    }
  }

  /** The result of a sweep at an instant when no collection year was due yet. */
  public static SweepResult nothingDue() {
    return new SweepResult(Optional.empty(), 0, 0, 0, true);
  }
}
