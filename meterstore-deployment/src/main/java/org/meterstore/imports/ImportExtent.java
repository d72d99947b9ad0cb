package org.meterstore.imports;

import java.time.Instant;
import org.meterstore.api.reading.StoredReading;

/**
 * What a checking pass found ({@link ImportSource#check}): how many readings the source holds and
 * the first and last interval start among them.
 *
 * @param readings the readings
 * @param firstFrom the earliest {@code from}, null without readings
 * @param lastFrom the latest {@code from}, null without readings
 */
public record ImportExtent(long readings, Instant firstFrom, Instant lastFrom) {
  /** No readings. */
  public static final ImportExtent EMPTY = new ImportExtent(0, null, null);

  /** Reads {@code cursor} to its end. */
  static ImportExtent of(ImportCursor cursor) {
    long n = 0;
    Instant first = null;
    Instant last = null;
    for (StoredReading r = cursor.next(); r != null; r = cursor.next()) {
      Instant from = r.reading().from();
      n++;
      first = first == null || from.isBefore(first) ? from : first;
      last = last == null || from.isAfter(last) ? from : last;
    }
    return new ImportExtent(n, first, last);
  }

  /** Both extents as one. */
  ImportExtent plus(ImportExtent other) {
    if (readings == 0) {
      return other;
    }
    if (other.readings == 0) {
      return this;
    }
    return new ImportExtent(
        readings + other.readings,
        other.firstFrom.isBefore(firstFrom) ? other.firstFrom : firstFrom,
        other.lastFrom.isAfter(lastFrom) ? other.lastFrom : lastFrom);
  }
}
