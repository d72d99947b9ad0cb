package org.meterstore.internal.write;

import java.time.Instant;

/**
 * A test seam: called by {@link TieredAppend} at each {@link AppendPoint} of a batch, so a test can
 * make archival commit a new W exactly there, or kill the process there. A hook that throws aborts
 * the append at that point. Production uses {@link #NONE}.
 */
@FunctionalInterface
public interface AppendHook {
  /** Does nothing. */
  AppendHook NONE = (point, table, watermark) -> {};

  /**
   * The append of a batch to {@code table} reached {@code point}; {@code watermark} is the W the
   * current round routes by (the new W at {@link AppendPoint#AFTER_REROUTE}).
   */
  void at(AppendPoint point, String table, Instant watermark);
}
