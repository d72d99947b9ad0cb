package org.meterstore.maintenance.internal.fault;

/** The step boundaries of an archival run at which a {@link FaultHook} is called. */
public enum FaultPoint {
  /** The lease is held; nothing else has happened yet. */
  AFTER_LEASE,
  /** A window's partition has just been detached (or finished detaching); nothing is written. */
  AFTER_DETACH,
  /** Between two chunks of a window's rows: some Parquet files may exist, nothing is committed. */
  BETWEEN_CHUNKS,
  /**
   * A window's cold commit landed; its W is not recorded in PostgreSQL yet (as the committed
   * watermark and floor), nor its digest re-checked against the partition.
   */
  AFTER_COLD_COMMIT,
  /**
   * A window's commit landed, its W is recorded as the committed watermark and floor, and its
   * digest matched; the partition is still detached.
   */
  AFTER_COMMIT,
  /** A reclaimable partition is about to be dropped. */
  BEFORE_DROP,
  /**
   * A compaction's new files are written and re-checked; its rewrite is not committed yet (only
   * reached when compaction is enabled and finds something to rewrite).
   */
  BEFORE_COMPACTION_COMMIT
}
