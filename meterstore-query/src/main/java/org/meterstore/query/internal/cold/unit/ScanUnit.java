package org.meterstore.query.internal.cold.unit;

/**
 * An independent part of a cold scan, read by one worker: one file whose versions need no
 * resolution, one month's files merged for resolution, or one month read as Iceberg records (delete
 * files, unsorted files). Units of one scan share no key, so their outputs simply add up.
 */
public interface ScanUnit {
  /** {@code columnar} or {@code records}, for the rows metric. */
  String path();

  /** {@code elided} or {@code resolved}, for the rows metric. */
  String resolution();

  /** The bytes it reads, to schedule the largest units first. */
  long weight();

  UnitRun open(UnitContext context);
}
