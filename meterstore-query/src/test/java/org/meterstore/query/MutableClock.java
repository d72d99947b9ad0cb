package org.meterstore.query;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock the test moves by hand. */
final class MutableClock implements InstantSource {
  private volatile Instant now;

  MutableClock(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  void set(Instant instant) {
    now = instant;
  }

  void advance(Duration d) {
    now = now.plus(d);
  }
}
