package org.meterstore.hot.internal.write;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import org.meterstore.api.reading.Reading;

/**
 * One validated reading of a batch, as the row it will be stored as plus the keys the writer
 * compares by. Keys are the merge-key values' text forms joined by a unit separator.
 *
 * @param index the reading's position in the batch
 * @param reading the delivered reading, for messages
 * @param values the row in column order ({@link org.meterstore.api.table.StoredRow})
 * @param mergeKeyValues the merge-key values' text forms, in key order
 * @param mergeKey the merge key
 * @param spanKey the merge key without {@code from}, plus the version: one reading's one version
 * @param version the effective version
 * @param scope the version scope
 * @param operator the network operator (the scope's first half)
 * @param from the interval start
 * @param to the interval end, or null for point readings
 * @param lower the lower bound of the partition that holds {@code from}
 * @param upper that partition's upper bound
 */
record BatchRow(
    int index,
    Reading reading,
    Object[] values,
    List<String> mergeKeyValues,
    String mergeKey,
    String spanKey,
    BigInteger version,
    String scope,
    String operator,
    Instant from,
    Instant to,
    Instant lower,
    Instant upper) {

  /** The primary key: merge key plus version. */
  String primaryKey() {
    return mergeKey + version;
  }

  /** Whether the span reaches beyond its partition, where the partition's constraint is blind. */
  boolean crossesPartition() {
    return to != null && to.isAfter(upper);
  }

  BigDecimal value() {
    return reading.value();
  }

  String unit() {
    return reading.unit().name();
  }

  String quality() {
    return reading.quality().name();
  }

  /** How this reading is named in messages: its position and its identity. */
  String describe() {
    return "#" + index + " " + reading;
  }
}
