package org.meterstore.hot.partition;

/** Where a partition stands in its lifecycle. */
public enum PartitionState {
  /** Attached to its parent: queries and writes through the parent see it. */
  ATTACHED,
  /**
   * A {@code DETACH … CONCURRENTLY} was interrupted (for example by {@code ddl_lock_timeout}): the
   * partition is half detached until a later detach in {@link DetachMode#CONCURRENTLY} mode
   * finishes it with {@code FINALIZE}. PostgreSQL already leaves it out of new queries and inserts
   * through the parent (a row for its window finds no partition); it is still readable by name,
   * which is how MeterStore's queries and archival read it.
   */
  DETACH_PENDING,
  /** A standalone table of the schema, named like a partition and no longer attached. */
  DETACHED
}
