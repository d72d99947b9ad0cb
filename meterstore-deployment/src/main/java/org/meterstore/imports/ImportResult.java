package org.meterstore.imports;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@code MeterTable.importHistory} did.
 *
 * @param table the table imported into
 * @param rows readings in the source
 * @param inserted readings stored as the first version of their merge key
 * @param superseded readings stored that outrank every stored version
 * @param shadowed readings stored below a higher stored version
 * @param duplicate readings found stored already (or repeated in the source): nothing written
 * @param chunks chunks the source was cut into
 * @param commits Iceberg commits made (at most two per chunk: one below W, one moving W)
 * @param rangeFrom the start of the import's range: the partition window of its earliest {@code
 *     from} (UTC); null for an empty source
 * @param rangeTo the end (exclusive) of the range: the end of the window of its latest {@code
 *     from}; null for an empty source
 * @param watermarkBefore W when the import started (UTC)
 * @param watermarkAfter W when it ended: never before {@code watermarkBefore}
 */
public record ImportResult(
    String table,
    long rows,
    long inserted,
    long superseded,
    long shadowed,
    long duplicate,
    int chunks,
    int commits,
    Instant rangeFrom,
    Instant rangeTo,
    Instant watermarkBefore,
    Instant watermarkAfter) {

  /** Checks that nothing required is null. */
  public ImportResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(watermarkBefore, "watermarkBefore");
    Objects.requireNonNull(watermarkAfter, "watermarkAfter");
  }

  /** Readings stored by this import: inserted, superseded and shadowed. */
  public long stored() {
    return inserted + superseded + shadowed;
  }
}
