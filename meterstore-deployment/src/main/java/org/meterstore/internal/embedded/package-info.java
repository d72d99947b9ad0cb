/**
 * Unsupported, may change: the embedded default's PostgreSQL server (optional zonky dependency) and
 * the lock that keeps one process per data directory.
 */
package org.meterstore.internal.embedded;
