package org.meterstore.query.internal.plan;

import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.meterstore.query.mode.ReadMode;

/**
 * The plans of one query engine by SQL text, read mode and connection settings, least recently used
 * evicted first. A plan holds nothing that changes with W (see {@link TierRouting}), so one plan
 * serves every execution of its text on every connection of the engine with the same mode and
 * settings; the engine's tables are fixed for its life, so they need no part in the key. {@code
 * EXPLAIN} and plans bound to one connection are never stored. Thread-safe.
 */
public final class PlanCache {
  /** What identifies a plan. */
  record Key(String sql, ReadMode mode, String settings, long maxRows, Type elementType) {}

  /** A plan and the tables it reads (for the planning metric of a cache hit). */
  record Entry(CalcitePrepare.CalciteSignature<?> signature, Set<String> tables) {}

  private final int capacity;
  private final Map<Key, Entry> plans;

  /** A cache of up to {@code capacity} plans; 0 keeps none. */
  public PlanCache(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("Invalid capacity: " + capacity + " (0 or more)");
    }
    this.capacity = capacity;
    this.plans =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
            return size() > PlanCache.this.capacity;
          }
        };
  }

  /** Whether plans are kept at all. */
  boolean enabled() {
    return capacity > 0;
  }

  synchronized Entry get(Key key) {
    return plans.get(key);
  }

  synchronized void put(Key key, Entry entry) {
    if (capacity > 0) {
      plans.put(key, entry);
    }
  }

  /** Drops the plan of {@code key}, if held. */
  synchronized void remove(Key key) {
    plans.remove(key);
  }

  /** The number of plans held. */
  public synchronized int size() {
    return plans.size();
  }
}
