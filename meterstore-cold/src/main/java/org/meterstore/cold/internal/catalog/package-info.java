/** Unsupported internals: building Iceberg catalogs and FileIOs from {@code ColdConfig}. */
package org.meterstore.cold.internal.catalog;
