package org.meterstore.hot.partition;

import java.time.Instant;

/**
 * One of a hot table's partitions, attached or not.
 *
 * @param table the parent table's name
 * @param name the partition's table name, {@code <table>_YYYY_MM_DD_HHMM} (its UTC lower bound)
 * @param lowerBound the first {@code from} it holds, inclusive, UTC
 * @param upperBound the first {@code from} it no longer holds, exclusive, UTC; for a detached
 *     partition derived from the table's archival step
 * @param state attached, half detached or detached
 */
public record PartitionInfo(
    String table, String name, Instant lowerBound, Instant upperBound, PartitionState state) {

  /** Whether queries and writes through the parent see this partition. */
  public boolean isAttached() {
    return state == PartitionState.ATTACHED;
  }
}
