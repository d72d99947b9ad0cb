package org.meterstore.hot.internal.write;

import org.meterstore.api.table.TableDefinition;

/**
 * The SQL a writer needs for one table, built once per table definition.
 *
 * @param layout the table's column layout
 * @param versions reads stored versions
 * @param lockedRead the first round trip of a write: locks, registry row, stored versions
 * @param inserter inserts new rows
 * @param crossing the cross-partition overlap check and its lock
 * @param diagnosis names the reading an exclusion constraint refused
 * @param subjects checks subject references against the registry (a no-op without a subject column)
 */
record Statements(
    TableLayout layout,
    StoredVersions versions,
    LockedRead lockedRead,
    RowInserter inserter,
    CrossingSpans crossing,
    ConstraintDiagnosis diagnosis,
    SubjectCheck subjects) {

  Statements(TableDefinition table, String schema) {
    this(new TableLayout(table), schema);
  }

  private Statements(TableLayout layout, String schema) {
    this(layout, new StoredVersions(layout, schema), new CrossingSpans(layout, schema), schema);
  }

  private Statements(
      TableLayout layout, StoredVersions versions, CrossingSpans crossing, String schema) {
    this(
        layout,
        versions,
        new LockedRead(layout, versions, crossing, schema),
        new RowInserter(layout, schema),
        crossing,
        new ConstraintDiagnosis(layout, schema),
        new SubjectCheck(layout, schema));
  }
}
