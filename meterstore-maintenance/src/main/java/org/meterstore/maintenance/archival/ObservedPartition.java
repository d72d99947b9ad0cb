package org.meterstore.maintenance.archival;

import java.time.Instant;
import java.util.Objects;

/**
 * A hot partition as an archival run observes it.
 *
 * @param name the partition's table name
 * @param from lower bound, inclusive (UTC)
 * @param to upper bound, exclusive (UTC); after {@code from}
 * @param attached whether it is attached to the parent table (detached ones are invisible to
 *     writers but still readable by queries that enumerated them)
 * @param archivedAt when the Iceberg commit that covers this partition's range was made (the {@code
 *     now} of that run), or null when no such commit is known; an attached partition that has one
 *     lost its detach
 */
public record ObservedPartition(
    String name, Instant from, Instant to, boolean attached, Instant archivedAt) {

  /** Checks the bounds. */
  public ObservedPartition {
    Objects.requireNonNull(name, "name");
    if (from == null || to == null || !to.isAfter(from)) {
      throw new IllegalArgumentException(
          "Invalid partition bounds: [" + from + ", " + to + ") of " + name);
    }
  }

  /** An attached partition. */
  public static ObservedPartition attached(String name, Instant from, Instant to) {
    return new ObservedPartition(name, from, to, true, null);
  }

  /** A detached partition, archived at {@code archivedAt} (null: not known to be archived). */
  public static ObservedPartition detached(
      String name, Instant from, Instant to, Instant archivedAt) {
    return new ObservedPartition(name, from, to, false, archivedAt);
  }
}
