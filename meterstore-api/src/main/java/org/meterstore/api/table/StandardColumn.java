package org.meterstore.api.table;

import java.util.Locale;

/** The columns every table has, in storage order (DESIGN § 3.2). */
public enum StandardColumn {
  MALO_ID(ColumnType.TEXT, false),
  MELO_ID(ColumnType.TEXT, true),
  OBIS_CODE(ColumnType.TEXT, false),
  SPARTE(ColumnType.TEXT, false),
  FROM(ColumnType.TIMESTAMPTZ, false),
  TO(ColumnType.TIMESTAMPTZ, true),
  VALUE(ColumnType.DECIMAL_18_6, false),
  UNIT(ColumnType.TEXT, false),
  QUALITY(ColumnType.TEXT, false),
  RESOLUTION(ColumnType.TEXT, true),
  VERSION(ColumnType.DECIMAL_20_0, false),
  VERSION_SCOPE(ColumnType.TEXT, false),
  RECORDED_AT(ColumnType.TIMESTAMPTZ, false),
  BALANCING_DAY(ColumnType.DATE, false),
  SOURCE_KIND(ColumnType.TEXT, true),
  PROVENANCE(ColumnType.TEXT, true);

  private final String columnName;
  private final ColumnSpec spec;

  StandardColumn(ColumnType type, boolean nullable) {
    // Computed once: scans and writers ask for names and specs per row.
    this.columnName = name().toLowerCase(Locale.ROOT);
    this.spec = new ColumnSpec(columnName, type, nullable);
  }

  /** The stored column name, e.g. {@code malo_id}, {@code from}. */
  public String columnName() {
    return columnName;
  }

  /** The column as both tiers store it. */
  public ColumnSpec spec() {
    return spec;
  }

  /** Whether {@code name} is one of these columns' names. */
  public static boolean isStandardName(String name) {
    for (StandardColumn c : values()) {
      if (c.columnName().equals(name)) {
        return true;
      }
    }
    return false;
  }
}
