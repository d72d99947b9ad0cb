package org.meterstore.hot.internal.schema;

/**
 * One named CHECK constraint of a parent table. Partitions copy it (same name) before they are
 * attached, as {@code ATTACH PARTITION} requires.
 *
 * @param name the constraint name, unique within its table
 * @param expression the SQL boolean expression, built from quoted identifiers and constants only
 */
public record CheckConstraint(String name, String expression) {}
