/**
 * What an outage of the cold tier's storage looks like from the outside: which failures thrown by
 * Iceberg, its FileIOs and its catalogs mean that the object store or the catalog did not answer,
 * so that every caller reports them as the one retryable {@code STORAGE} error.
 */
package org.meterstore.cold.outage;
