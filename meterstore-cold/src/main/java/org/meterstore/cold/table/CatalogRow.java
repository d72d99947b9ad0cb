package org.meterstore.cold.table;

/**
 * Where Iceberg's JDBC catalog records a cold table: the key of its row in {@code iceberg_tables},
 * whose {@code metadata_location} names the table's current metadata file. Whoever can read that
 * row in the same database can tell whether the table moved without asking the catalog.
 *
 * @param catalog the name the catalog was initialised with
 * @param namespace the namespace's levels joined by dots
 * @param table the table's name in that namespace
 */
public record CatalogRow(String catalog, String namespace, String table) {}
