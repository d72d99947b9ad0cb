package org.meterstore.query.internal.cold.aggregate;

import java.util.Arrays;

/**
 * Groups by a fixed number of {@code long}s per key (open addressing, linear probing): group ids
 * are dense, from 0 in order of first appearance. No per-row allocation. Not thread-safe.
 */
final class GroupTable {
  private final int width;
  private long[] keys;
  private int[] slots;
  private int mask;
  private int size;

  GroupTable(int width) {
    this.width = width;
    this.keys = new long[16 * width];
    this.slots = new int[64];
    Arrays.fill(slots, -1);
    this.mask = slots.length - 1;
  }

  int size() {
    return size;
  }

  /** The {@code i}-th long of group {@code group}'s key. */
  long key(int group, int i) {
    return keys[group * width + i];
  }

  /** The id of the group of {@code key} (its first {@code width} longs), added if new. */
  int find(long[] key) {
    int slot = hash(key) & mask;
    while (true) {
      int g = slots[slot];
      if (g < 0) {
        return add(key, slot);
      }
      if (equal(g, key)) {
        return g;
      }
      slot = (slot + 1) & mask;
    }
  }

  private boolean equal(int group, long[] key) {
    int base = group * width;
    for (int i = 0; i < width; i++) {
      if (keys[base + i] != key[i]) {
        return false;
      }
    }
    return true;
  }

  private int add(long[] key, int slot) {
    int g = size++;
    if (size * width > keys.length) {
      keys = Arrays.copyOf(keys, keys.length * 2);
    }
    System.arraycopy(key, 0, keys, g * width, width);
    slots[slot] = g;
    if (size * 2 > slots.length) {
      rehash();
    }
    return g;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    Arrays.fill(slots, -1);
    mask = slots.length - 1;
    long[] key = new long[width];
    for (int g = 0; g < size; g++) {
      System.arraycopy(keys, g * width, key, 0, width);
      int slot = hash(key) & mask;
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = g;
    }
  }

  private int hash(long[] key) {
    long h = 0x9E3779B97F4A7C15L;
    for (int i = 0; i < width; i++) {
      h = (h ^ key[i]) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    return (int) (h ^ (h >>> 32));
  }

  /** Forgets every group. */
  void clear() {
    Arrays.fill(slots, -1);
    size = 0;
  }
}
