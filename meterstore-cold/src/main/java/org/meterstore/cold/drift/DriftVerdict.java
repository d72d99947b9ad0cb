package org.meterstore.cold.drift;

/** Whether archival may write into a cold table as configured. */
public enum DriftVerdict {
  /** The schemas agree, or differ only in accepted ways (DESIGN § 5). */
  COMPATIBLE,
  /** At least one difference is not accepted: the table is quarantined. */
  QUARANTINED,
  /** The cold table could not report its schema; treated like {@link #QUARANTINED}. */
  UNKNOWN
}
