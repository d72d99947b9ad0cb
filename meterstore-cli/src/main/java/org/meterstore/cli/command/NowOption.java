package org.meterstore.cli.command;

import java.time.Instant;
import org.meterstore.maintenance.WallClock;
import picocli.CommandLine.Option;

/**
 * The {@code --now} option of every time-dependent verb: the instant the verb acts at. Without it
 * the wall clock is read once, through {@link WallClock}; tests always pass it.
 */
final class NowOption {
  @Option(
      names = "--now",
      paramLabel = "<instant>",
      description = "Act as if it were this ISO-8601 instant (default: the wall clock).")
  Instant now;

  /** The instant given, or the wall clock's. */
  Instant get() {
    return now != null ? now : WallClock.INSTANCE.instant();
  }
}
