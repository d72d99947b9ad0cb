package org.meterstore.cold.commit;

/**
 * The snapshot-summary keys of MeterStore's commits (DESIGN § 5). External engines may read them;
 * their meaning does not change once released.
 */
public final class SummaryKeys {
  private SummaryKeys() {}

  /**
   * The watermark W after this commit: an ISO-8601 instant in UTC, e.g. {@code
   * 2026-01-02T00:00:00Z}.
   */
  public static final String WATERMARK = "meterstore.watermark";

  /** The archived window {@code [from, to)} as two ISO instants; archival commits only. */
  public static final String ARCHIVED_RANGE = "meterstore.archived-range";

  /** How many rows this commit added. */
  public static final String ROW_COUNT = "meterstore.row-count";

  /** The caller's {@code now} when it committed (ISO instant, UTC). */
  public static final String ARCHIVED_AT = "meterstore.archived-at";

  /** The table's archival step (ISO-8601 duration); archival commits only. */
  public static final String ARCHIVAL_STEP = "meterstore.archival-step";

  /** The epoch of the archival lease the committer held; archival commits only. */
  public static final String LEASE_EPOCH = "meterstore.lease-epoch";

  /** The content digest of the added rows, {@code rows=<n>;value-sum=<decimal>}. */
  public static final String DIGEST = "meterstore.digest";

  /** A random id per call, so a commit whose outcome was unknown can be found afterwards. */
  public static final String COMMIT_ID = "meterstore.commit-id";

  /**
   * What the commit was: {@code archive}, {@code correction}, {@code restamp} or {@code compact} (a
   * rewrite of small files that adds and removes no row).
   */
  public static final String OPERATION = "meterstore.operation";

  /** How many data files a {@code compact} commit replaced; compaction commits only. */
  public static final String REWRITTEN_FILES = "meterstore.rewritten-files";

  /** Table property: the archival step the table was created with (ISO-8601 duration). */
  public static final String TABLE_ARCHIVAL_STEP = "meterstore.archival-step";
}
