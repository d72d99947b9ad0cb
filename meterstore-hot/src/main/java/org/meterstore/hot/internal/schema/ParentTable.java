package org.meterstore.hot.internal.schema;

import static org.meterstore.api.table.SqlIdentifiers.quote;
import static org.meterstore.api.table.SqlIdentifiers.quoteAll;

import java.util.ArrayList;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.TableDefinition;

/**
 * The DDL of a declared table's parent: its columns in {@link TableDefinition#columns()} order, the
 * primary key (merge key + version), the {@link CheckConstraints}, partitioned by {@code RANGE
 * ("from")}. The parent holds no rows itself and has no DEFAULT partition.
 */
public final class ParentTable {
  private ParentTable() {}

  /** {@code CREATE TABLE "schema"."table" (…) PARTITION BY RANGE ("from")}. */
  public static String createStatement(String schema, TableDefinition table) {
    List<String> elements = new ArrayList<>();
    for (ColumnSpec column : table.columns()) {
      elements.add(
          quote(column.name())
              + " "
              + sqlType(column.type())
              + (column.nullable() ? "" : " NOT NULL"));
    }
    elements.add(
        "CONSTRAINT "
            + quote(table.name() + "_pkey")
            + " PRIMARY KEY ("
            + quoteAll(table.primaryKey())
            + ")");
    for (CheckConstraint check : CheckConstraints.of(table)) {
      elements.add("CONSTRAINT " + quote(check.name()) + " CHECK (" + check.expression() + ")");
    }
    return "CREATE TABLE "
        + quote(schema)
        + "."
        + quote(table.name())
        + " (\n  "
        + String.join(",\n  ", elements)
        + "\n) PARTITION BY RANGE ("
        + quote("from")
        + ")";
  }

  /** The PostgreSQL type of a logical column type (DESIGN § 3.2). */
  public static String sqlType(ColumnType type) {
    switch (type) {
      case TEXT:
        return "text";
      case TIMESTAMPTZ:
        return "timestamptz";
      case DATE:
        return "date";
      case DECIMAL_18_6:
        return "numeric(18,6)";
      case DECIMAL_20_0:
        return "numeric(20,0)";
      default:
        throw new IllegalStateException("unknown column type " + type);
    }
  }
}
