package org.meterstore.hot.archive;

/**
 * A table's archival lease, held by one session at a time across every process that shares the
 * database. Not thread-safe: one archival run uses it. Closing it releases the lock and the
 * connection; a holder that dies loses it with its connection.
 */
public interface ArchivalLease extends AutoCloseable {
  /** The table it guards. */
  String table();

  /** The epoch of this acquisition: one more than the previous holder's, at least 1. */
  long epoch();

  /** The PostgreSQL backend process id of the lease's connection (what an operator terminates). */
  int backendPid();

  /**
   * Whether the lease is still held: its connection answers and still holds the advisory lock.
   * Never throws; a broken connection is false.
   */
  boolean isHeld();

  /** Releases the lock and closes the connection. Idempotent; never throws. */
  @Override
  void close();
}
