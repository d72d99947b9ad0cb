/**
 * Unsupported internals: the cold table layout derived from a {@code TableDefinition} (schema,
 * partition spec, sort order, properties) and the conversion between rows and Iceberg records.
 */
package org.meterstore.cold.internal.layout;
