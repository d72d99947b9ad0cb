package org.meterstore.imports;

import org.meterstore.api.reading.StoredReading;

/** One pass over an {@link ImportSource}'s records, in file order. Not thread-safe; close it. */
public interface ImportCursor extends AutoCloseable {

  /**
   * The next reading, validated by the api's builders and the table's rules, with the version,
   * {@code recorded_at} and balancing day it is stored with; null at the end.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} naming the source, the
   *     record's line and the rule; {@code STORAGE} when the file cannot be read
   */
  StoredReading next();

  /**
   * Where the last record returned is: for CSV the line it starts on (1 = the header), for Parquet
   * its row number (1 = the first row).
   */
  long position();

  @Override
  void close();
}
