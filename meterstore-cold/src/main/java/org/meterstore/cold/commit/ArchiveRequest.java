package org.meterstore.cold.commit;

import java.time.Instant;
import org.meterstore.api.MeterStoreException;

/**
 * One archival window to commit to the cold tier.
 *
 * @param from the window start, inclusive (UTC); every row's {@code from} must be at or after it.
 *     The table's watermark W must be at or before it when the commit lands.
 * @param to the window end, exclusive (UTC), after {@code from}; becomes the new watermark W
 * @param now the caller's current time, stamped as {@code meterstore.archived-at}
 * @param leaseEpoch the epoch of the archival lease the caller holds, stamped into the commit
 */
public record ArchiveRequest(Instant from, Instant to, Instant now, long leaseEpoch) {

  /** Checks that the window is non-empty and that {@code now} is set. */
  public ArchiveRequest {
    if (from == null || to == null || !to.isAfter(from)) {
      throw MeterStoreException.invalid(
          "archival window", "[" + from + ", " + to + ")", "to must be after from");
    }
    if (now == null) {
      throw MeterStoreException.invalid("now", null, "required");
    }
  }

  /** The window as {@code [from, to)}, the form of the {@code meterstore.archived-range} key. */
  public String range() {
    return "[" + from + ", " + to + ")";
  }
}
