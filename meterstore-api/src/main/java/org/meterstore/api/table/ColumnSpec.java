package org.meterstore.api.table;

/**
 * One column of a table as both tiers store it.
 *
 * @param name the column name (a lowercase identifier)
 * @param type the logical type
 * @param nullable whether the column accepts null
 */
public record ColumnSpec(String name, ColumnType type, boolean nullable) {}
