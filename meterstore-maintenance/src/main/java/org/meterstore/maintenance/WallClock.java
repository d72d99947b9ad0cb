package org.meterstore.maintenance;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The one place MeterStore reads the wall clock: the default {@link InstantSource} of a spawned
 * maintenance loop, which asks it once per cycle for that cycle's {@code now}. Everything else
 * takes {@code now} as a parameter.
 */
final class WallClock implements InstantSource {
  static final WallClock INSTANCE = new WallClock();

  private WallClock() {}

  @Override
  public Instant instant() {
    return Instant.now();
  }
}
