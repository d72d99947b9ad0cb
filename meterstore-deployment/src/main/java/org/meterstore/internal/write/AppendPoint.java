package org.meterstore.internal.write;

/**
 * The steps of one {@link TieredAppend#append} at which its {@link AppendHook} is called, so that a
 * test can make archival commit there or stop the process there. Each names what has landed.
 */
public enum AppendPoint {
  /**
   * A round has routed the batch by W (its first, or one after W moved); nothing of this round is
   * written yet.
   */
  AFTER_ROUTING,
  /** The hot part committed; the cold part (if any) is not written yet. */
  AFTER_HOT,
  /** The cold part's correction append committed; W has not been read again yet. */
  AFTER_COLD,
  /**
   * W moved during the write and the readings that now lie below it (landed hot and archived with
   * their partition, or refused by the hot tier) have been appended cold; called with the new W.
   */
  AFTER_REROUTE
}
