/**
 * The partition lifecycle: the UTC grid partitions are cut on, their creation by attach (never in
 * place), the catalog queries that list them, and detach and drop under {@code ddl_lock_timeout}.
 * Unsupported internal API.
 */
package org.meterstore.hot.internal.partition;
