package org.meterstore.internal.write;

import java.time.Instant;

/**
 * A test seam: called by {@link TieredAppend} after a batch was routed by W and before either tier
 * is written, so a test can make archival commit a new W exactly there. Production uses {@link
 * #NONE}.
 */
@FunctionalInterface
public interface AppendHook {
  /** Does nothing. */
  AppendHook NONE = (table, watermark) -> {};

  /** Called once per routing round with the table and the W the batch was routed by. */
  void afterRouting(String table, Instant watermark);
}
