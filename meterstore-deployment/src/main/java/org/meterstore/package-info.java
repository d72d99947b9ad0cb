/**
 * The front door of a MeterStore deployment: {@link org.meterstore.MeterStores#open} reads {@code
 * meterstore.toml} (or takes stores the application owns) and returns a {@link
 * org.meterstore.MeterCatalog}, which hands out one entry point per concern: a {@link
 * org.meterstore.MeterTable} per table (write, import, tags, checks, orphan files, purge), the
 * subject registry, the maintenance builder, JDBC connections. {@link org.meterstore.Tiers} is the
 * expert door to the tier stores, for tests and out-of-band tools. This is the one artifact an
 * application depends on ({@code org.meterstore:meterstore}).
 */
package org.meterstore;
