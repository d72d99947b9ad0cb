package org.meterstore.api.reading;

/** Where a stored reading lives (DESIGN § 1): PostgreSQL or Iceberg, split by the watermark W. */
public enum Tier {
  /** The hot tier, PostgreSQL: readings with {@code from >= W}, still correctable in place. */
  HOT,
  /** The cold tier, Apache Iceberg: readings with {@code from < W}, settled history. */
  COLD
}
