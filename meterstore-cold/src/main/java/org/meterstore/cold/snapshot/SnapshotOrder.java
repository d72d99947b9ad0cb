package org.meterstore.cold.snapshot;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Orders snapshots by their sequence number, the only order Iceberg guarantees (format v2 requires
 * it to increase strictly with every commit, even for the several snapshots of one transaction).
 * The position of a snapshot in the metadata's list and its timestamp are not an order: catalogs
 * return the list in varying orders and clocks skew.
 */
public final class SnapshotOrder {
  private SnapshotOrder() {}

  /**
   * {@code snapshots} sorted by ascending sequence number, ties (format v1 tables only) broken by
   * snapshot id. Returns a new list; the input is not changed.
   */
  public static <T> List<T> bySequenceNumber(
      Collection<T> snapshots, ToLongFunction<T> sequenceNumber, ToLongFunction<T> snapshotId) {
    List<T> sorted = new ArrayList<>(snapshots);
    sorted.sort(Comparator.comparingLong(sequenceNumber).thenComparingLong(snapshotId));
    return sorted;
  }

  /** {@code snapshots} in commit order. */
  public static List<SnapshotInfo> ordered(Collection<SnapshotInfo> snapshots) {
    return bySequenceNumber(snapshots, SnapshotInfo::sequenceNumber, SnapshotInfo::snapshotId);
  }
}
