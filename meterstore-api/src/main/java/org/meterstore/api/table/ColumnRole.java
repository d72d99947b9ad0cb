package org.meterstore.api.table;

/** What a declared extra column is for. All extra columns are text. */
public enum ColumnRole {
  /** Part of the merge key (e.g. {@code tenant}); not null. */
  IDENTITY,
  /** Free text describing the reading; nullable. */
  ATTRIBUTE,
  /** One of a closed list of values; nullable. */
  CODED,
  /** An identifier checked by its domain rule ({@link CheckedKind}); nullable, stored canonical. */
  CHECKED
}
