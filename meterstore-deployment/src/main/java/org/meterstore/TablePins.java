package org.meterstore;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.HotStore;
import org.meterstore.hot.archive.ArchivalLease;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.maintenance.window.TierWatermark;

/**
 * State pins of one table ({@link MeterTable#pins()}), for readers outside MeterStore: a Spark or
 * Trino job that reads the cold table at snapshot S and the hot parent from W up (the federated
 * query of {@code "system".seam}) pins that state for as long as it runs. While the pin lives,
 * archival archives no window of the table (the table's maintenance row says {@code HELD}), so W
 * stays and no partition the job reads is detached or dropped, and snapshot expiry keeps S; the pin
 * lapses on its own at its expiry, so a crashed job cannot hold the table forever. Every process
 * sharing the database sees the pin. Thread-safe; holds no resources of its own.
 */
public final class TablePins {
  /** The longest a pin may be taken for: archival of the table waits while it lives. */
  public static final Duration MAX_TTL = Duration.ofDays(7);

  private static final int MAX_HOLDER = 200;

  private final MeterTable table;

  TablePins(MeterTable table) {
    this.table = table;
  }

  /**
   * Pins the table's current state (S, W) for {@code holder} until {@code now + ttl} or {@link
   * #release}. Taken under the table's archival lease, so no archival run moves W between reading
   * the state and recording the pin. A state the federated query cannot serve is refused, never
   * weakened: a partition at or above W that is detached or pending detach (the hot parent would
   * not show its rows).
   *
   * @param ttl how long the pin holds, positive and at most {@link #MAX_TTL}
   * @param holder who holds it (job or operator), non-blank, at most 200 characters
   * @throws MeterStoreException {@code INVALID_INPUT} for a bad ttl or holder, or a state that
   *     cannot be served (nothing written); {@code LOCK_TIMEOUT} (retryable) while an archival run
   *     or an import holds the table's lease; {@code INVARIANT_VIOLATED} when W went back below the
   *     committed watermark
   */
  public StatePin pin(Duration ttl, String holder, Instant now) {
    MeterCatalog.requireNow(now);
    if (ttl == null || ttl.isNegative() || ttl.isZero() || ttl.compareTo(MAX_TTL) > 0) {
      throw MeterStoreException.invalid("pin ttl", ttl, "positive and at most " + MAX_TTL);
    }
    if (holder == null || holder.isBlank() || holder.length() > MAX_HOLDER) {
      throw MeterStoreException.invalid(
          "pin holder", holder, "a non-blank label of at most " + MAX_HOLDER + " characters");
    }
    HotStore hot = table.catalog().hotStore();
    String leaseHolder = "meterstore pin: " + holder;
    Optional<ArchivalLease> lease =
        hot.archival()
            .tryLease(
                table.definition(),
                leaseHolder.substring(0, Math.min(leaseHolder.length(), MAX_HOLDER)),
                now);
    if (lease.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.LOCK_TIMEOUT,
          "Cannot pin table "
              + table.name()
              + ": an archival run or an import holds its lease; nothing was pinned, try again");
    }
    try (ArchivalLease held = lease.get()) {
      if (!held.isHeld()) {
        throw new MeterStoreException(
            ErrorKind.LOCK_TIMEOUT,
            "Cannot pin table "
                + table.name()
                + ": its lease lapsed; nothing was pinned, try again");
      }
      TierWatermark.State state =
          new TierWatermark(hot, table.cold(), table.definition()).currentState();
      requireServable(hot, state.watermark());
      return hot.pins()
          .pinState(table.name(), state.snapshotId(), state.watermark(), holder, now, ttl);
    }
  }

  /** The table's live state pins at {@code now}, oldest first. */
  public List<StatePin> list(Instant now) {
    MeterCatalog.requireNow(now);
    return table.catalog().hotStore().pins().statePins(table.name(), now);
  }

  /** Releases pin {@code id}; releasing one that is gone already is not an error. */
  public void release(long id) {
    table.catalog().hotStore().pins().release(id);
  }

  private void requireServable(HotStore hot, Instant w) {
    Optional<PartitionInfo> hidden =
        PartitionInfo.hiddenFromParent(hot.partitions().list(table.definition()), w);
    if (hidden.isPresent()) {
      PartitionInfo p = hidden.get();
      throw MeterStoreException.invalid(
          "pin of " + table.name(),
          p.name(),
          "a state the federated query can serve: partition "
              + p.name()
              + " is "
              + p.state()
              + " above W "
              + w
              + ", so the hot parent would not show its rows; run maintenance first (it"
              + " finishes the detach and archives the window)");
    }
  }
}
