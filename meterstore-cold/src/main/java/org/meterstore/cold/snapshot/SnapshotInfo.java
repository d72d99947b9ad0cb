package org.meterstore.cold.snapshot;

import java.time.Instant;
import java.util.List;

/**
 * One snapshot of a cold table.
 *
 * @param snapshotId Iceberg's snapshot id
 * @param sequenceNumber Iceberg's data sequence number: the order of commits (never use list
 *     position or timestamps for that)
 * @param committedAt when the catalog committed it (Iceberg's timestamp, taken from the committing
 *     process's wall clock, UTC, millisecond precision; informational only)
 * @param stampedAt MeterStore's own time of the commit ({@code meterstore.archived-at}: the
 *     caller's {@code now}), or, for a foreign snapshot without one, that of its nearest ancestor
 *     that carries one; null when no ancestor does (or the walk reaches an expired parent first).
 *     Expiry measures a snapshot's age by it, never by {@code committedAt}
 * @param operation Iceberg's operation ({@code append}, {@code replace}, {@code overwrite} …), or
 *     null
 * @param watermark the W this snapshot carries or inherits from its nearest ancestor that carries
 *     one; the epoch when no ancestor does; null when its ancestry is broken by expiry
 * @param ownWatermark whether this snapshot carries {@code meterstore.watermark} itself
 * @param meterstoreOperation {@code archive}, {@code correction}, {@code restamp}, or null for a
 *     foreign commit
 * @param addedRows rows this snapshot added ({@code added-records}), or -1 when unknown
 * @param totalRows rows in the table at this snapshot ({@code total-records}), or -1 when unknown
 * @param tags the tags pointing at this snapshot, sorted by name
 */
public record SnapshotInfo(
    long snapshotId,
    long sequenceNumber,
    Instant committedAt,
    Instant stampedAt,
    String operation,
    Instant watermark,
    boolean ownWatermark,
    String meterstoreOperation,
    long addedRows,
    long totalRows,
    List<String> tags) {

  /** Copies the tag list. */
  public SnapshotInfo {
    tags = List.copyOf(tags);
  }
}
