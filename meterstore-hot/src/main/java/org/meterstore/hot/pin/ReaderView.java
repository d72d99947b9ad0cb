package org.meterstore.hot.pin;

import java.time.Instant;
import java.util.List;
import org.meterstore.hot.partition.PartitionInfo;

/**
 * What one query execution needs of a table's hot tier, read in one round trip by {@link
 * ReaderPins#view}: the committed watermark (to refuse a cold tier rolled back behind it), every
 * partition of the table in any state, and the pin taken over the window the execution reads.
 *
 * @param committedWatermark the watermark the archiver last recorded as committed (UTC), {@link
 *     Instant#EPOCH} when none was recorded
 * @param partitions every partition of the table, attached or not, in bound order
 * @param pin the pin taken in the same round trip, or null when none was asked for
 * @param catalogPointer the metadata location the {@link CatalogEntry} asked for held, read before
 *     the partitions were listed; null when none was asked for or the catalog has no such row
 */
public record ReaderView(
    Instant committedWatermark,
    List<PartitionInfo> partitions,
    ReaderPin pin,
    String catalogPointer) {

  /** Copies the partitions. */
  public ReaderView {
    partitions = List.copyOf(partitions);
  }

  /** A view that read no catalog pointer. */
  public ReaderView(Instant committedWatermark, List<PartitionInfo> partitions, ReaderPin pin) {
    this(committedWatermark, partitions, pin, null);
  }
}
