package org.meterstore.hot.pin;

import java.time.Instant;

/**
 * A registered hot window a query still reads.
 *
 * @param id the pin's id, for {@link ReaderPins#release(long)}
 * @param table the table name
 * @param from lower bound of the window, inclusive (UTC)
 * @param to upper bound of the window, exclusive (UTC)
 * @param expiresAt when the pin lapses even if never released (UTC)
 */
public record ReaderPin(long id, String table, Instant from, Instant to, Instant expiresAt) {

  /** Whether this pin's window shares an instant with {@code [lower, upper)}. */
  public boolean overlaps(Instant lower, Instant upper) {
    return from.isBefore(upper) && lower.isBefore(to);
  }
}
