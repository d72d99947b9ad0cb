package org.meterstore.query.internal.state;

import java.time.Instant;
import java.util.List;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.mode.ReadMode;

/**
 * What one statement reads of one table in one read mode, fixed when the statement is planned: the
 * watermark W (read once), the Iceberg snapshot (pinned by id), the hot partitions enumerated (read
 * by name, so a partition that archival detaches afterwards is still read) and the reader pin that
 * keeps them from being dropped. Immutable.
 *
 * @param def the table
 * @param mode the read mode
 * @param readsCold whether the mode reads the cold tier at all
 * @param readsHot whether the mode reads the hot tier at all
 * @param coldSnapshot the cold snapshot pinned at planning (with its W), or null when the cold tier
 *     is not read or unreachable
 * @param boundary the split point: cold rows have {@code from < boundary}, hot rows {@code from >=
 *     boundary}; W when known, {@link Instant#MAX} in cold-only modes, {@link Instant#MIN} in
 *     operational mode, and the lowest attached partition's bound when the cold tier is unreachable
 * @param coldFailure why the cold tier could not be read, or null
 * @param partitions the hot partitions to read, in bound order
 * @param pin the reader pin over them, or null when none was needed
 */
public record TableState(
    TableDefinition def,
    ReadMode mode,
    boolean readsCold,
    boolean readsHot,
    SnapshotView coldSnapshot,
    Instant boundary,
    MeterStoreException coldFailure,
    List<PartitionInfo> partitions,
    ReaderPin pin) {

  /** Copies the partition list. */
  public TableState {
    partitions = List.copyOf(partitions);
  }

  /** The pinned snapshot's id, or null when the cold tier is not read or has no snapshot. */
  public Long snapshotId() {
    if (coldSnapshot == null || coldSnapshot.snapshotId().isEmpty()) {
      return null;
    }
    return coldSnapshot.snapshotId().getAsLong();
  }

  /** W of the pinned snapshot, or null when the cold tier is not read or unreachable. */
  public Instant watermark() {
    return coldSnapshot == null ? null : coldSnapshot.watermark();
  }

  /** Whether {@code range} needs rows of the cold tier. */
  public boolean needsCold(FromRange range) {
    return readsCold && !range.isEmpty() && range.lower().isBefore(boundary);
  }

  /** Whether {@code range} needs rows of the hot tier. */
  public boolean needsHot(FromRange range) {
    return readsHot && !range.isEmpty() && range.upper().isAfter(boundary);
  }

  /**
   * Fails when the cold tier is needed but could not be read at planning.
   *
   * @throws MeterStoreException {@code STORAGE} (retryable), never a hot-only answer
   */
  public void requireColdReadable() {
    if (coldFailure != null) {
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot read table "
              + def.name()
              + ": the query needs the cold tier, which is unreachable ("
              + coldFailure.getMessage()
              + "); refusing to answer from the hot tier alone",
          coldFailure);
    }
  }

  /** The hot partitions overlapping {@code range} at or above the boundary. */
  public List<PartitionInfo> partitionsFor(FromRange range) {
    Instant lower = range.lower().isAfter(boundary) ? range.lower() : boundary;
    return partitions.stream()
        .filter(p -> p.upperBound().isAfter(lower) && p.lowerBound().isBefore(range.upper()))
        .toList();
  }
}
