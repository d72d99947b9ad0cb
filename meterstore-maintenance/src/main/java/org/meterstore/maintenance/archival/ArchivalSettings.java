package org.meterstore.maintenance.archival;

import java.util.Objects;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.hot.partition.DetachMode;

/**
 * How an {@link Archiver} works, independent of any table.
 *
 * @param detachMode {@link DetachMode#CONCURRENTLY} (default: inserts do not wait for it while a
 *     long reader holds the partition) or {@link DetachMode#PLAIN} (one transaction under {@code
 *     ddl_lock_timeout}, during which inserts queue behind it); a partition left half detached by
 *     an interrupted concurrent detach is always finished with {@code FINALIZE}, whatever the mode
 * @param sourceChunkRows rows read from PostgreSQL per keyset query (default 50 000), at least 1:
 *     with the cold tier's sort chunk this bounds the run's memory
 * @param holder who takes the lease, as recorded in {@code archival_leases} (host and process id,
 *     say); 1 to 200 characters
 * @param snapshotRetention the snapshot retention expiry uses for every table, or null (the
 *     default) for each table's own policy
 */
public record ArchivalSettings(
    DetachMode detachMode,
    int sourceChunkRows,
    String holder,
    SnapshotRetention snapshotRetention) {
  /** The default rows per keyset query. */
  public static final int DEFAULT_SOURCE_CHUNK_ROWS = 50_000;

  /** Checks every component. */
  public ArchivalSettings {
    Objects.requireNonNull(detachMode, "detachMode");
    if (sourceChunkRows < 1) {
      throw MeterStoreException.invalid("source chunk rows", sourceChunkRows, "at least 1");
    }
    if (holder == null || holder.isBlank() || holder.length() > 200) {
      throw MeterStoreException.invalid("lease holder", holder, "1 to 200 characters");
    }
  }

  /** Settings that leave the snapshot retention to each table's policy. */
  public ArchivalSettings(DetachMode detachMode, int sourceChunkRows, String holder) {
    this(detachMode, sourceChunkRows, holder, null);
  }

  /** Concurrent detach, the default chunk, this process as holder, each table's retention. */
  public static ArchivalSettings defaults() {
    return new ArchivalSettings(
        DetachMode.CONCURRENTLY, DEFAULT_SOURCE_CHUNK_ROWS, defaultHolder());
  }

  /** These settings with another detach mode. */
  public ArchivalSettings withDetachMode(DetachMode mode) {
    return new ArchivalSettings(mode, sourceChunkRows, holder, snapshotRetention);
  }

  /** These settings with another source chunk size. */
  public ArchivalSettings withSourceChunkRows(int rows) {
    return new ArchivalSettings(detachMode, rows, holder, snapshotRetention);
  }

  /** These settings with another lease holder name. */
  public ArchivalSettings withHolder(String newHolder) {
    return new ArchivalSettings(detachMode, sourceChunkRows, newHolder, snapshotRetention);
  }

  /** These settings with a snapshot retention for every table (null: each table's own). */
  public ArchivalSettings withSnapshotRetention(SnapshotRetention retention) {
    return new ArchivalSettings(detachMode, sourceChunkRows, holder, retention);
  }

  /** The policy expiry applies to a table whose own policy is {@code policy}. */
  public TablePolicy expiryPolicy(TablePolicy policy) {
    return snapshotRetention == null ? policy : snapshotRetention.applyTo(policy);
  }

  /** {@code <host>:<pid>}, or {@code pid <pid>} when the host name is unknown. */
  static String defaultHolder() {
    long pid = ProcessHandle.current().pid();
    try {
      return java.net.InetAddress.getLocalHost().getHostName() + ":" + pid;
    } catch (java.net.UnknownHostException e) {
      return "pid " + pid;
    }
  }
}
