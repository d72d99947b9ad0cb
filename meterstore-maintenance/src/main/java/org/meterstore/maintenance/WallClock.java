package org.meterstore.maintenance;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The one place MeterStore reads the wall clock: the default {@link InstantSource} of a spawned
 * maintenance loop, which asks it once per cycle for that cycle's {@code now}, and of application
 * edges such as the {@code meterstore} command when no {@code --now} is given. Everything else
 * takes {@code now} as a parameter.
 */
public final class WallClock implements InstantSource {
  /** The wall clock (UTC). */
  public static final WallClock INSTANCE = new WallClock();

  private WallClock() {}

  @Override
  public Instant instant() {
    return Instant.now();
  }
}
