package org.meterstore.hot.partition;

/** How {@link Partitions#detach} removes a partition from its parent. */
public enum DetachMode {
  /**
   * {@code ALTER TABLE … DETACH PARTITION} in one transaction: needs {@code ACCESS EXCLUSIVE} on
   * the parent, so it waits for every running query; when {@code ddl_lock_timeout} expires first it
   * gives up having changed nothing.
   */
  PLAIN,
  /**
   * {@code DETACH PARTITION … CONCURRENTLY}: needs only {@code SHARE UPDATE EXCLUSIVE} on the
   * parent but runs in two transactions; when {@code ddl_lock_timeout} interrupts the second, the
   * partition stays {@link PartitionState#DETACH_PENDING}, and the next detach in this mode
   * finishes it with {@code FINALIZE}.
   */
  CONCURRENTLY
}
