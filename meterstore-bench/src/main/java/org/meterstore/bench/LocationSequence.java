package org.meterstore.bench;

import java.util.SplittableRandom;

/**
 * The market locations one client thread asks about, in order: uniformly drawn from {@code [0,
 * locations)} by a stream seeded from (seed, question, thread), so MeterStore's thread {@code t}
 * and PostgreSQL's thread {@code t} ask about the same locations in the same order. Not
 * thread-safe: one per client thread.
 */
final class LocationSequence {
  private final SplittableRandom random;
  private final int locations;

  /**
   * @param seed the run's seed
   * @param question which question (its ordinal)
   * @param thread the client thread's index, from 0
   * @param locations how many locations there are, at least 1
   */
  LocationSequence(long seed, int question, int thread, int locations) {
    if (locations < 1) {
      throw new IllegalArgumentException("Invalid locations: " + locations + " (at least 1)");
    }
    this.random = new SplittableRandom(Dataset.mix(seed, question, thread));
    this.locations = locations;
  }

  /** The next location's index. */
  int next() {
    return random.nextInt(locations);
  }
}
