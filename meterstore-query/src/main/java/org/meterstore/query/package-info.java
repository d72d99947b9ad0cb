/**
 * Querying MeterStore with SQL: a Calcite schema per catalog whose relations merge and
 * version-resolve both tiers, the read modes, the {@code system} relations, SQL functions and the
 * {@code jdbc:meterstore:} driver.
 */
package org.meterstore.query;
