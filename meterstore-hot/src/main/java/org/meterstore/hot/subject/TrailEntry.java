package org.meterstore.hot.subject;

import java.time.Instant;
import java.time.Year;
import java.util.List;
import java.util.Objects;

/**
 * One row of the append-only erasure trail. It never holds a natural identifier: references,
 * counts, who and why.
 *
 * @param sequence the trail's own ascending number, gap-free only by accident
 * @param at the caller's {@code now} of the recorded operation (UTC)
 * @param action what happened
 * @param trigger request or retention for {@link TrailAction#ERASE}, null otherwise
 * @param references the references concerned: the erased ones ({@code ERASE}), the held or released
 *     one ({@code HOLD}, {@code RELEASE}), none for {@code LIFT_SUPPRESSION}
 * @param affected mappings erased ({@code ERASE}), suppression entries removed ({@code
 *     LIFT_SUPPRESSION}), 1 for {@code HOLD} and {@code RELEASE}
 * @param reason the reason the caller gave
 * @param actor who the caller said acted
 * @param heldUntil for {@code HOLD}: the end of the hold, null for an indefinite one; null
 *     otherwise
 * @param dueThrough for a sweep's {@code ERASE}: the newest collection year it erased; null
 *     otherwise
 * @param suppressionKeyId for {@code ERASE} on request: the key that wrote the suppression entry,
 *     or null when none was written (no key ring configured, or erased by the sweep)
 */
public record TrailEntry(
    long sequence,
    Instant at,
    TrailAction action,
    Trigger trigger,
    List<SubjectRef> references,
    int affected,
    String reason,
    String actor,
    Instant heldUntil,
    Year dueThrough,
    String suppressionKeyId) {

  /** Copies the references and checks that the required components are present. */
  public TrailEntry {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(actor, "actor");
    references = List.copyOf(references);
    if ((action == TrailAction.ERASE) != (trigger != null)) {
      throw new IllegalArgumentException(
          "Invalid trigger: " + trigger + " (set for ERASE entries only, not " + action + ")");
    }
  }
}
