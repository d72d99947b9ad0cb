package org.meterstore.hot.pin;

import java.time.Instant;
import java.util.Objects;

/**
 * A pin on one table's current two-tier state, taken for a reader outside MeterStore (a Spark or
 * Trino job): the cold snapshot S and the watermark W it reads at, held until released or expired.
 * While it lives, archival archives no window of the table and snapshot expiry keeps S, so the
 * federated query for (S, W) keeps returning the same readings.
 *
 * @param id the pin's id, for {@link ReaderPins#release(long)}
 * @param table the table name
 * @param holder who holds it (a job or operator label), never blank
 * @param snapshotId the cold snapshot S, or null when the cold table had none (W is the epoch)
 * @param watermark W at S (UTC)
 * @param createdAt when it was taken (the caller's {@code now}, UTC)
 * @param expiresAt when it lapses even if never released (UTC)
 */
public record StatePin(
    long id,
    String table,
    String holder,
    Long snapshotId,
    Instant watermark,
    Instant createdAt,
    Instant expiresAt) {

  /** Checks that nothing required is null. */
  public StatePin {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(watermark, "watermark");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }

  /** Whether the pin still holds at {@code now}. */
  public boolean activeAt(Instant now) {
    return expiresAt.isAfter(now);
  }
}
