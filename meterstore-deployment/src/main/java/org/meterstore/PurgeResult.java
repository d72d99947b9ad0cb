package org.meterstore;

import java.util.List;

/**
 * What {@link MeterTable#purge} removed.
 *
 * @param table the purged table
 * @param hotRelationsDropped the PostgreSQL relations dropped: the parent first, then its attached
 *     partitions, then detached leftovers; empty when the hot tier had none
 * @param coldTableDropped whether the catalog had an Iceberg table to drop (with its files)
 */
public record PurgeResult(
    String table, List<String> hotRelationsDropped, boolean coldTableDropped) {
  /** Copies the list. */
  public PurgeResult {
    hotRelationsDropped = List.copyOf(hotRelationsDropped);
  }
}
