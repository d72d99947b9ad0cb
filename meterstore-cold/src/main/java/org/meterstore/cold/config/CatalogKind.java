package org.meterstore.cold.config;

/** Which Iceberg catalog holds the cold tables (DESIGN § 5). */
public enum CatalogKind {
  /**
   * Iceberg's JDBC catalog, usually on the hot tier's PostgreSQL (the default). The catalog keeps
   * its own tables ({@code iceberg_tables}, {@code iceberg_namespace_properties}) in that database.
   */
  JDBC,
  /** An Iceberg REST catalog (Polaris, Lakekeeper, Nessie, Gravitino …) at {@code uri}. */
  REST,
  /** A {@link org.apache.iceberg.catalog.Catalog} instance the caller built and owns. */
  CUSTOM
}
