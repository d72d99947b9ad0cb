package org.meterstore.hot.internal.partition;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The windows this store has seen attached, per table, so that a steady writer does not ask the
 * catalog before every batch. It can only be stale in one direction (a window detached by another
 * process): the insert then fails with "no partition", and the writer forgets the table and retries
 * once. Thread-safe.
 */
public final class KnownPartitions {
  private final ConcurrentHashMap<String, Set<Instant>> attached = new ConcurrentHashMap<>();

  /** Whether the window of {@code table} starting at {@code lower} was seen attached. */
  public boolean contains(String table, Instant lower) {
    Set<Instant> known = attached.get(table);
    return known != null && known.contains(lower);
  }

  /** Remembers the window as attached. */
  public void add(String table, Instant lower) {
    attached.computeIfAbsent(table, t -> ConcurrentHashMap.newKeySet()).add(lower);
  }

  /** Forgets one window (detached or dropped by this store). */
  public void forget(String table, Instant lower) {
    Set<Instant> known = attached.get(table);
    if (known != null) {
      known.remove(lower);
    }
  }

  /** Forgets every window of {@code table}. */
  public void forgetTable(String table) {
    attached.remove(table);
  }
}
