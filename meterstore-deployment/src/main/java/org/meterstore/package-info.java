/**
 * The front door of a MeterStore deployment: {@link org.meterstore.MeterStores#open} reads {@code
 * meterstore.toml} (or takes stores the application owns) and returns a {@link
 * org.meterstore.MeterCatalog}, through which an application writes ({@code append}, {@code
 * hotWriter}), queries over JDBC, maintains and purges its tables. This is the one artifact an
 * application depends on ({@code org.meterstore:meterstore}).
 */
package org.meterstore;
