package org.meterstore.hot.subject;

/** What an erasure-trail entry records. */
public enum TrailAction {
  /** Mappings were erased, on request or by the sweep; the entry has a {@link Trigger}. */
  ERASE,
  /** A legal hold was placed (or replaced) on a reference. */
  HOLD,
  /** A legal hold was released. */
  RELEASE,
  /** An identifier was taken off the suppression list. */
  LIFT_SUPPRESSION
}
