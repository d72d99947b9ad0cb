package org.meterstore.cold.snapshot;

import org.meterstore.api.MeterStoreException;

/**
 * One data file a snapshot reads, as Iceberg's metadata records it.
 *
 * @param location the file's location as the table's FileIO names it (for the local filesystem a
 *     {@code file:} URI or an absolute path), never null
 * @param recordCount how many rows the file holds, zero or more
 * @param sizeInBytes the file's size in bytes, zero or more
 */
public record ColdDataFile(String location, long recordCount, long sizeInBytes) {

  /** Checks the location and the counts. */
  public ColdDataFile {
    if (location == null || location.isBlank()) {
      throw MeterStoreException.invalid("data file location", location, "not blank");
    }
    if (recordCount < 0) {
      throw MeterStoreException.invalid("data file record count", recordCount, "zero or more");
    }
    if (sizeInBytes < 0) {
      throw MeterStoreException.invalid("data file size", sizeInBytes, "zero or more");
    }
  }
}
