package org.meterstore.hot.partition;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

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

  /**
   * The first of {@code partitions} that reaches to or above {@code w} but is not attached
   * (detached, or pending detach), or empty: a query on the parent from {@code w} up would miss its
   * rows. What a foreign engine's federated query (and a state pin) cannot serve.
   */
  public static Optional<PartitionInfo> hiddenFromParent(
      List<PartitionInfo> partitions, Instant w) {
    return partitions.stream()
        .filter(p -> !p.isAttached() && p.upperBound().isAfter(w))
        .findFirst();
  }
}
