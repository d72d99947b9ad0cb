package org.meterstore.hot.internal.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import org.meterstore.api.table.VersionOrder;

/**
 * One version of a reading that is already stored (or accepted earlier in the same batch), with
 * what a redelivery is compared by.
 *
 * @param version the version
 * @param scope the version scope
 * @param value the value, scale 6
 * @param unit the unit name
 * @param quality the quality name
 * @param to the interval end, or null
 * @param recordedAt when it was recorded, the tie-breaker between equal versions
 */
record StoredVersion(
    BigInteger version,
    String scope,
    BigDecimal value,
    String unit,
    String quality,
    Instant to,
    Instant recordedAt) {

  /** The network operator: the scope's first half. */
  String operator() {
    int colon = scope.indexOf(':');
    return colon < 0 ? scope : scope.substring(0, colon);
  }

  /** Whether this version ranks above {@code other}: higher version, then later recorded. */
  boolean outranks(StoredVersion other) {
    return VersionOrder.outranks(version, recordedAt, other.version, other.recordedAt);
  }

  /** The version {@code row} would store, recorded at {@code now}. */
  static StoredVersion of(BatchRow row, Instant now) {
    return new StoredVersion(
        row.version(), row.scope(), row.value(), row.unit(), row.quality(), row.to(), now);
  }
}
