package org.meterstore.hot.internal.write;

import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * The rules a delivery can break against stored state (DESIGN § 3.3, § 9), with the message that
 * names the rule, the table and the reading. The constraint names are the logical ones of DESIGN §
 * 3.3, never a partition's physical constraint name.
 */
enum Violation {
  /** Same merge key and version, different value, unit, quality or scope. */
  VALUE_RESTATED(ErrorKind.INTEGRITY_VIOLATION, "value restated under an existing version"),
  /** Two spans of one reading under one version overlap. */
  SPANS_OVERLAP(ErrorKind.INTEGRITY_VIOLATION, "constraint spans_do_not_overlap"),
  /** A second network operator for one reading. */
  SECOND_OPERATOR(ErrorKind.INTEGRITY_VIOLATION, "constraint one_operator_per_reading"),
  /** A subject reference that is malformed or that the subject registry does not back. */
  SUBJECT_NOT_REGISTERED(ErrorKind.INVALID_INPUT, "subject_is_registered"),
  /** A subject reference issued for another collection year than the reading's balancing year. */
  SUBJECT_OF_ANOTHER_YEAR(ErrorKind.INVALID_INPUT, "subject_year_matches_reading");

  private final ErrorKind kind;
  private final String rule;

  Violation(ErrorKind kind, String rule) {
    this.kind = kind;
    this.rule = rule;
  }

  /** The rule as messages name it. */
  String rule() {
    return rule;
  }

  /** {@code Cannot write to table <t>: reading #<i> <reading> <what> (<rule>)}. */
  MeterStoreException refuse(String table, BatchRow row, String what) {
    return new MeterStoreException(
        kind,
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
