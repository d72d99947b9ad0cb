package org.meterstore.cold.drift;

import java.util.List;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The result of a schema drift check of one table.
 *
 * @param table the MeterStore table name
 * @param verdict compatible, quarantined, or unknown (the schema could not be read)
 * @param reasons why the table is quarantined or unknown, one line per difference; empty when
 *     compatible
 * @param acceptedDifferences differences that are accepted (e.g. an added nullable column), one
 *     line each
 */
public record DriftReport(
    String table, DriftVerdict verdict, List<String> reasons, List<String> acceptedDifferences) {

  /** Copies the lists and checks that only a compatible report has no reasons. */
  public DriftReport {
    reasons = List.copyOf(reasons);
    acceptedDifferences = List.copyOf(acceptedDifferences);
    if ((verdict == DriftVerdict.COMPATIBLE) != reasons.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid drift report: " + verdict + " with reasons " + reasons);
    }
  }

  /** Whether archival may proceed. An unknown schema is not compatible. */
  public boolean isCompatible() {
    return verdict == DriftVerdict.COMPATIBLE;
  }

  /**
   * Returns normally when compatible.
   *
   * @throws MeterStoreException {@code QUARANTINED} naming the table and every reason
   */
  public void requireCompatible() {
    if (!isCompatible()) {
      throw new MeterStoreException(
          ErrorKind.QUARANTINED,
          "Cannot archive into cold table "
              + table
              + ": schema drift "
              + verdict
              + " ("
              + String.join("; ", reasons)
              + ")");
    }
  }
}
