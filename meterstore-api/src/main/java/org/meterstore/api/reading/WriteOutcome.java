package org.meterstore.api.reading;

/** What a write did with one reading (DESIGN § 4). */
public enum WriteOutcome {
  /** Stored; the first version of its merge key in its scope. */
  INSERTED,
  /** Stored, and it became the current value: it outranks the version that was current. */
  SUPERSEDED,
  /** Stored, but a higher version already wins; it stays in the audit trail. */
  SHADOWED,
  /** A redelivery of a stored version with the same value, unit and quality: skipped. */
  DUPLICATE
}
