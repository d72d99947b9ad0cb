package org.meterstore.api.table;

/** The logical type of a column; each tier maps it to its own type (DESIGN § 3.2). */
public enum ColumnType {
  /** PostgreSQL {@code text}, Iceberg {@code string}. */
  TEXT,
  /** PostgreSQL {@code timestamptz}, Iceberg {@code timestamptz} (microseconds). */
  TIMESTAMPTZ,
  /** PostgreSQL {@code date}, Iceberg {@code date}. */
  DATE,
  /** PostgreSQL {@code numeric(18,6)}, Iceberg {@code decimal(18,6)}: reading values. */
  DECIMAL_18_6,
  /** PostgreSQL {@code numeric(20,0)}, Iceberg {@code decimal(20,0)}: versions. */
  DECIMAL_20_0
}
