package org.meterstore.hot.pin;

/**
 * The row of Iceberg's JDBC catalog ({@code iceberg_tables}) that points at a cold table's current
 * metadata file, when that catalog keeps its tables in the hot tier's database: a query execution
 * then reads the pointer in the same round trip as the hot state ({@link ReaderPins#view}), and the
 * cold tier reloads the table only when the pointer moved.
 *
 * @param catalog the catalog's name ({@code catalog_name})
 * @param namespace the table's namespace, levels joined by dots ({@code table_namespace})
 * @param table the Iceberg table's name ({@code table_name})
 */
public record CatalogEntry(String catalog, String namespace, String table) {}
