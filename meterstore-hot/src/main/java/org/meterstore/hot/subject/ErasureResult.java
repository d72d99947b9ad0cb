package org.meterstore.hot.subject;

import java.util.List;

/**
 * What one {@link Subjects#eraseSubject} call did.
 *
 * @param erased the references whose mappings were deleted, every collection year of the person;
 *     empty when none was left (already erased, or never registered)
 * @param suppressionKeyId the id of the key whose HMAC of the identifier is now on the suppression
 *     list, or null when no key ring is configured or the identifier was unknown (an erasure by a
 *     reference that no longer exists)
 */
public record ErasureResult(List<SubjectRef> erased, String suppressionKeyId) {
  /** Copies the list. */
  public ErasureResult {
    erased = List.copyOf(erased);
  }

  /** The number of mappings (person × collection year) deleted. */
  public int count() {
    return erased.size();
  }

  /** Whether the identifier is now on the suppression list. */
  public boolean suppressed() {
    return suppressionKeyId != null;
  }
}
