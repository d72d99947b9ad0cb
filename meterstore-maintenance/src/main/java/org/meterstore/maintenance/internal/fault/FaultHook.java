package org.meterstore.maintenance.internal.fault;

/**
 * Called by an archival run at each {@link FaultPoint}, on the run's thread, so that crash tests
 * can stop a process exactly there. Runs use {@link #NONE} unless a test installed a hook with
 * {@link FaultInjection#during}. A hook that throws aborts the run as a failure at that point.
 */
@FunctionalInterface
public interface FaultHook {
  /** The hook that does nothing. */
  FaultHook NONE = (point, table, partition) -> {};

  /**
   * The run reached {@code point}.
   *
   * @param table the table being archived
   * @param partition the partition concerned, or null at {@link FaultPoint#AFTER_LEASE}
   */
  void reached(FaultPoint point, String table, String partition);
}
