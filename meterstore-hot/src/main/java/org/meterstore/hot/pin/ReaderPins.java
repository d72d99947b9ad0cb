package org.meterstore.hot.pin;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.meterstore.api.MeterStoreException;

/**
 * The registry of reader pins in MeterStore's schema. A pin is a row, so every process that shares
 * the database sees it: archival in one replica respects a query running in another. Pins expire on
 * their own, so a crashed reader cannot hold a partition forever. Thread-safe. Obtain through
 * {@code HotStore.pins()}.
 */
public interface ReaderPins {
  /**
   * Registers {@code [from, to)} of {@code table} as read until released or until {@code now +
   * ttl}.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} for an empty window or a non-positive ttl;
   *     {@code STORAGE} when the database is unreachable
   */
  ReaderPin pin(String table, Instant from, Instant to, Instant now, Duration ttl);

  /** Releases a pin; releasing one that is gone already is not an error. */
  void release(long id);

  /** The pins of {@code table} that have not expired at {@code now}, oldest first. */
  List<ReaderPin> active(String table, Instant now);

  /** Deletes pins that expired at or before {@code now}; returns how many. */
  int purgeExpired(Instant now);
}
