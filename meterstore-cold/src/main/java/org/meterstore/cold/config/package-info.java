/**
 * The cold tier's configuration: which catalog ({@link org.meterstore.cold.config.CatalogKind}),
 * where the warehouse is, object-storage settings, file size and the commit retry policy. Immutable
 * records, validated when built; {@link org.meterstore.cold.ColdStore#open} turns one into a
 * running store.
 */
package org.meterstore.cold.config;
