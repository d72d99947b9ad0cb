package org.meterstore.cold.commit;

/** How an archival commit ended when it did not throw. */
public enum ArchiveStatus {
  /** This call's snapshot is in the table; W is the request's {@code to}. */
  COMMITTED,
  /**
   * Another archiver already moved W to or past this window's start (or past its end): nothing of
   * this call is in the table and every data file it wrote was deleted. The archival job reports
   * this as {@code LEASE_CONTENDED}, a benign no-op.
   */
  LOST_RACE,
  /**
   * The caller's lease check, asked just before the commit, said the archival lease is no longer
   * held: nothing of this call is in the table and the files it wrote were deleted.
   */
  LEASE_LOST
}
