package org.meterstore.hot.internal.subject;

import java.time.Instant;
import org.meterstore.api.MeterStoreException;

/**
 * Who did what, why and when: the checked arguments every audited registry operation takes.
 *
 * @param reason 1 to {@value Arguments#MAX_REASON} characters, not blank
 * @param actor 1 to {@value Arguments#MAX_ACTOR} characters, not blank
 * @param now the caller's instant, required
 */
record Audit(String reason, String actor, Instant now) {
  /** Checks all three, failing with {@code INVALID_INPUT}. */
  Audit {
    Arguments.reason(reason);
    Arguments.actor(actor);
    Arguments.required("now", now);
  }

  /**
   * This audit, after checking that neither reason nor actor carries the identifier it concerns:
   * the trail would then hold it.
   */
  Audit about(String normalisedId) {
    requireWithout("reason", reason, normalisedId);
    requireWithout("actor", actor, normalisedId);
    return this;
  }

  private static void requireWithout(String field, String text, String normalisedId) {
    if (NaturalIds.appearsIn(text, normalisedId)) {
      throw MeterStoreException.invalid(
          field, "(not shown)", "must not contain the natural id; the trail never stores it");
    }
  }
}
