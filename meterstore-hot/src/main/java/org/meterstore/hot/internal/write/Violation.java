package org.meterstore.hot.internal.write;

import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The integrity rules a delivery can break (DESIGN § 3.3), with the message that names the rule,
 * the table and the reading. The constraint names are the logical ones of DESIGN § 3.3, never a
 * partition's physical constraint name.
 */
enum Violation {
  /** Same merge key and version, different value, unit, quality or scope. */
  VALUE_RESTATED("value restated under an existing version"),
  /** Two spans of one reading under one version overlap. */
  SPANS_OVERLAP("constraint spans_do_not_overlap"),
  /** A second network operator for one reading. */
  SECOND_OPERATOR("constraint one_operator_per_reading");

  private final String rule;

  Violation(String rule) {
    this.rule = rule;
  }

  /** The rule as messages name it. */
  String rule() {
    return rule;
  }

  /** {@code Cannot write to table <t>: reading #<i> <reading> <what> (<rule>)}. */
  MeterStoreException refuse(String table, BatchRow row, String what) {
    return new MeterStoreException(
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot write to table "
            + table
            + ": reading "
            + row.describe()
            + " "
            + what
            + " ("
            + rule
            + "); nothing of the batch was stored");
  }

  /** The same message when the reading could not be identified. */
  MeterStoreException refuseBatch(String table, Throwable cause) {
    return new MeterStoreException(
        ErrorKind.INTEGRITY_VIOLATION,
        "Cannot write to table "
            + table
            + ": a reading of the batch conflicts with a stored one ("
            + rule
            + "); nothing of the batch was stored",
        cause);
  }
}
